import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { startAnvil } from '../test/chain/anvil';
import { startTronFake } from '../test/chain/tron-fake';
import { ZSignerEnv } from '../../../signer/src/config';
import { demoAppEnv, demoPort, demoSignerEnv } from './demo-chain-env';

const TOKENS = {
  bsc: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  polygon: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
  tron: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
};

describe('npm run demo:chain', () => {
  it('gives its app its own PGlite directory whatever the shell says (DATABASE_URL is cleared)', () => {
    const env = demoAppEnv(
      { DATABASE_URL: 'postgres://prod.example/money', DATA_DIR: '/srv/money', PATH: '/bin' },
      {
        dataDir: '/tmp/usdt-demo-chain-x',
        port: '3000',
        anvilUrl: 'http://127.0.0.1:8545',
        tronUrl: 'http://127.0.0.1:9090',
        tokens: TOKENS,
        signerToken: 'x'.repeat(64),
      },
    );
    expect(env).toMatchObject({ DATABASE_URL: '', DATA_DIR: '/tmp/usdt-demo-chain-x', PATH: '/bin', PAYMENTS_GATEWAY: 'chain' });
    const config = loadConfig(env);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir).toBe('/tmp/usdt-demo-chain-x');
    expect(config.payments.custody.networks.map((n) => n.network)).toEqual(['bsc', 'polygon', 'tron']);
    expect(config.payments.payouts).toMatchObject({ mode: 'signer', hot: { evm: expect.stringMatching(/^0x[0-9a-f]{40}$/) } });
  });

  it("starts a signer with its own database and the app's token, whatever the shell's SIGNER_DATABASE_URL", () => {
    const env = demoSignerEnv(
      { SIGNER_DATABASE_URL: 'postgres://prod.example/signer', PATH: '/bin' },
      { dataDir: '/tmp/d', port: '3000', anvilUrl: 'http://127.0.0.1:8545', tokens: TOKENS, signerToken: 'x'.repeat(64), mnemonicFile: '/tmp/d/m' },
    );
    expect(env.SIGNER_DATABASE_URL).toBeUndefined();
    expect(ZSignerEnv.parse(env)).toMatchObject({
      SIGNER_DATA_DIR: '/tmp/d/signer',
      SIGNER_SERVER_URL: 'http://127.0.0.1:3000',
      SIGNER_MNEMONIC_FILE: '/tmp/d/m',
    });
  });

  it('takes its ports from DEMO_ANVIL_PORT and DEMO_TRON_PORT (unset: any free port), refusing what is no port', () => {
    expect(demoPort('DEMO_ANVIL_PORT', undefined)).toBe(0);
    expect(demoPort('DEMO_ANVIL_PORT', '')).toBe(0);
    expect(demoPort('DEMO_TRON_PORT', '9090')).toBe(9090);
    expect(() => demoPort('DEMO_ANVIL_PORT', '8545x')).toThrow(/^DEMO_ANVIL_PORT must be a port number/);
    expect(() => demoPort('DEMO_TRON_PORT', '70000')).toThrow(/^DEMO_TRON_PORT must be a port number/);
  });

  it('starts anvil and the Tron fake on the ports named', async () => {
    // Two ports nothing holds now: what a free-port anvil and fake were given, closed again.
    const probeAnvil = await startAnvil();
    const probeTron = await startTronFake(probeAnvil.url);
    const [anvilPort, tronPort] = [Number(new URL(probeAnvil.url).port), Number(new URL(probeTron.url).port)];
    await probeTron.close();
    await probeAnvil.close();
    const anvil = await startAnvil({ port: anvilPort });
    try {
      const tron = await startTronFake(anvil.url, { port: tronPort });
      try {
        expect(anvil.url).toBe(`http://127.0.0.1:${anvilPort}`);
        expect(tron.url).toBe(`http://127.0.0.1:${tronPort}`);
        // A port taken is an error, not a hang.
        await expect(startTronFake(anvil.url, { port: tronPort })).rejects.toThrow(/EADDRINUSE/);
      } finally {
        await tron.close();
      }
    } finally {
      await anvil.close();
    }
  }, 60_000);
});
