import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { isValidTronAddress } from '@app/core';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { useTestApp } from '../../test/app';
import { nodeArgs } from '../../test/entry-points';
import { payments } from '@app/core/contracts';
import { inject } from '../../test/api';
import { createUser } from '../../test/factories';
import { deriveAddress, parseAccountXpub } from './derive';
import { TEST_EVM_XPUB, TEST_MNEMONIC, TEST_TRON_XPUB } from '../../test/chain/test-keys';

const root = path.resolve(import.meta.dirname, '../../../../..');

describe('deposit addresses from the account xpubs alone', () => {
  it('derives the test mnemonic’s first EVM and Tron addresses from the xpubs (no private key)', () => {
    const evm = parseAccountXpub(TEST_EVM_XPUB, 'evm');
    const tron = parseAccountXpub(TEST_TRON_XPUB, 'tron');
    expect(evm.privateKey).toBeNull();
    // m/44'/60'/0'/0/i of "test … junk": the well-known first accounts of every dev chain.
    expect(deriveAddress('evm', evm, 0).display).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(deriveAddress('evm', evm, 1).display).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    // m/44'/195'/0'/0/i: base58check of 0x41 ‖ the same 20-byte form.
    const t0 = deriveAddress('tron', tron, 0);
    expect(t0.hex).toBe('0xe2e1a54926527fbb4e4420de4c6bab82beaee24d');
    expect(t0.display).toBe('TWer2Ygk5TEheHp3TPuYeqxmB6SsGZmaL6');
    expect(isValidTronAddress(t0.display)).toBe(true);
    expect(deriveAddress('tron', tron, 1).display).toBe('TPjjvMwjPoDC32V2dGDYTkLH4E5LAtBZ6C');
  });

  it('the xpubs are the ones of the mnemonic’s account paths', () => {
    const master = HDKey.fromMasterSeed(mnemonicToSeedSync(TEST_MNEMONIC));
    expect(master.derive("m/44'/60'/0'").publicExtendedKey).toBe(TEST_EVM_XPUB);
    expect(master.derive("m/44'/195'/0'").publicExtendedKey).toBe(TEST_TRON_XPUB);
  });
});

describe('the chain gateway’s configuration stops a bad start with one line naming the variable', () => {
  const master = HDKey.fromMasterSeed(mnemonicToSeedSync(TEST_MNEMONIC));
  const base = { PAYMENTS_GATEWAY: 'chain', CHAIN_BSC_RPC_URL: 'http://127.0.0.1:1', CUSTODY_EVM_XPUB: TEST_EVM_XPUB };
  const error = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (err) {
      return (err as Error).message;
    }
    return 'no error';
  };

  it('accepts the account xpub', () => {
    expect(loadConfig(base).payments.custody.networks.map((n) => n.network)).toEqual(['bsc']);
  });
  it('refuses a private key', () => {
    const msg = error({ ...base, CUSTODY_EVM_XPUB: master.derive("m/44'/60'/0'").privateExtendedKey });
    expect(msg).toMatch(/^Invalid configuration: CUSTODY_EVM_XPUB is a private key \(xprv\)/);
    expect(msg).not.toContain('\n');
    expect(error({ ...base, CUSTODY_TRON_XPUB: master.derive("m/44'/195'/0'").privateExtendedKey })).toMatch(
      /^Invalid configuration: CUSTODY_TRON_XPUB is a private key/,
    );
  });
  it('refuses a key of the wrong depth (the master key, a change-level key)', () => {
    expect(error({ ...base, CUSTODY_EVM_XPUB: master.publicExtendedKey })).toMatch(
      /^Invalid configuration: CUSTODY_EVM_XPUB must be the account-level xpub .* got depth 0$/,
    );
    expect(error({ ...base, CUSTODY_EVM_XPUB: master.derive("m/44'/60'/0'/0").publicExtendedKey })).toMatch(/CUSTODY_EVM_XPUB .* got depth 4$/);
  });
  it('refuses text that is no extended key', () => {
    expect(error({ ...base, CUSTODY_EVM_XPUB: 'xpub-not-really' })).toMatch(/^Invalid configuration: CUSTODY_EVM_XPUB is not an extended public key/);
  });
  it('refuses chain without any network, or a network without its xpub', () => {
    expect(error({ PAYMENTS_GATEWAY: 'chain', CUSTODY_EVM_XPUB: TEST_EVM_XPUB })).toMatch(
      /^Invalid configuration: PAYMENTS_GATEWAY=chain needs at least one network: set CHAIN_BSC_RPC_URL/,
    );
    expect(error({ PAYMENTS_GATEWAY: 'chain', CHAIN_TRON_API_URL: 'http://127.0.0.1:1', CUSTODY_EVM_XPUB: TEST_EVM_XPUB })).toBe(
      'Invalid configuration: CUSTODY_TRON_XPUB is required when CHAIN_TRON_API_URL is set with PAYMENTS_GATEWAY=chain',
    );
  });
  it('refuses a confirmation depth of 0 and a bad token address', () => {
    expect(error({ ...base, CHAIN_BSC_CONFIRMATIONS: '0' })).toBe('Invalid configuration: CHAIN_BSC_CONFIRMATIONS must be at least 1 confirmation');
    expect(error({ ...base, CHAIN_BSC_USDT: 'USDT' })).toBe('Invalid configuration: CHAIN_BSC_USDT must be a 0x… contract address');
  });
  it('bounds a tick’s credits by CHAIN_CREDITS_PER_TICK (200 unless set), refusing 0', () => {
    expect(loadConfig(base).payments.custody.creditsPerTick).toBe(200);
    expect(loadConfig({ ...base, CHAIN_CREDITS_PER_TICK: '12' }).payments.custody.creditsPerTick).toBe(12);
    expect(error({ ...base, CHAIN_CREDITS_PER_TICK: '0' })).toBe('Invalid configuration: CHAIN_CREDITS_PER_TICK must be at least 1');
  });
});

describe('GET /api/payments/addresses and POST /api/payments/create with PAYMENTS_GATEWAY=chain', () => {
  const t = useTestApp({
    PAYMENTS_GATEWAY: 'chain',
    CUSTODY_EVM_XPUB: TEST_EVM_XPUB,
    CUSTODY_TRON_XPUB: TEST_TRON_XPUB,
    // Nothing listens there: these tests run no watcher.
    CHAIN_BSC_RPC_URL: 'http://127.0.0.1:9',
    CHAIN_POLYGON_RPC_URL: 'http://127.0.0.1:9',
    CHAIN_TRON_API_URL: 'http://127.0.0.1:9',
    RATE_LIMIT_AUTH_PER_MIN: '1000',
  });

  it('answers the same permanent addresses every time: one EVM address for BSC and Polygon, a T… one for Tron', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    const first = await inject(t.app, payments.addresses, { token: u.token });
    expect(first.statusCode, first.body).toBe(200);
    const a = first.data();
    expect(a.usdtbsc).toBe(a.usdtmatic);
    expect(a.usdtbsc).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(isValidTronAddress(a.usdttrc20!)).toBe(true);
    const again = await inject(t.app, payments.addresses, { token: u.token });
    expect(again.data()).toEqual(a);
    // Each key has its own index sequence (key rotation, migration 0205).
    const idx = async (family: 'evm' | 'tron') =>
      (await t.db.selectFrom('custody_addresses').select('idx').where('user_id', '=', u.id).where('family', '=', family).executeTakeFirstOrThrow()).idx;
    expect(a.usdtbsc).toBe(deriveAddress('evm', parseAccountXpub(TEST_EVM_XPUB, 'evm'), await idx('evm')).display);
    expect(a.usdttrc20).toBe(deriveAddress('tron', parseAccountXpub(TEST_TRON_XPUB, 'tron'), await idx('tron')).display);

    const created = await inject(t.app, payments.create, { token: u.token, body: { amount: 25, currency: 'usdttrc20' } });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.data()).toMatchObject({ payAddress: a.usdttrc20, payCurrency: 'usdttrc20', amount: 25, status: 'waiting' });
    const bsc = await inject(t.app, payments.create, { token: u.token, body: { amount: 5, currency: 'usdtbsc' } });
    expect(bsc.data().payAddress).toBe(a.usdtbsc);
    const row = await t.db.selectFrom('payments').selectAll().where('provider_payment_id', '=', bsc.data().payment_id).executeTakeFirstOrThrow();
    expect(row.provider).toBe('chain');
    expect(row.extra).toMatchObject({ network: 'bsc', required_confirmations: 15 });
  });

  it('gives 50 users asking at once 50 distinct indexes and addresses, never shared', async () => {
    const users = await Promise.all(Array.from({ length: 50 }, () => createUser(t.db, t.ctx.secret)));
    // Each user asks twice at once too: the same user must get one index.
    const answers = await Promise.all(
      [...users, ...users].map((u) => inject(t.app, payments.addresses, { token: u.token }).then((r) => [u.id, r.data()] as const)),
    );
    const byUser = new Map<bigint, string | undefined>();
    for (const [id, data] of answers) {
      if (byUser.has(id)) expect(data.usdtbsc).toBe(byUser.get(id));
      byUser.set(id, data.usdtbsc);
    }
    expect(new Set(byUser.values()).size).toBe(50);
    const rows = await t.db.selectFrom('custody_addresses').select(['address', 'idx', 'user_id']).where('family', '=', 'evm').execute();
    expect(new Set(rows.map((r) => r.address)).size).toBe(rows.length);
    expect(new Set(rows.map((r) => r.idx)).size).toBe(rows.length);
    expect(new Set(rows.map((r) => r.user_id)).size).toBe(rows.length);
  });

  it('a user of another gateway has no such route', async () => {
    // (this app is chain; the sandbox's simulate route is absent here)
    const u = await createUser(t.db, t.ctx.secret);
    const res = await inject(t.app, payments.sandboxPay, { params: { payment_id: '1' }, token: u.token, body: { amount: 1 } });
    expect(res.statusCode).toBe(404);
  });
});

describe('GET /api/payments/addresses under another gateway', () => {
  const t = useTestApp();
  it('answers 404: only the chain gateway has permanent addresses (the route exists, so /api/docs lists it)', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    const res = await inject(t.app, payments.addresses, { token: u.token });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, code: 'NOT_FOUND', message: 'Not found' });
    expect((await t.db.selectFrom('custody_addresses').selectAll().execute()).length).toBe(0);
  });
});

describe('npm run cli -- custody:xpub', () => {
  it('reads the mnemonic from standard input, prints the xpubs and first addresses, and stores nothing', async () => {
    const dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'usdt-xpub-')), 'data');
    const out = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [...nodeArgs('cli'), 'custody:xpub', '--count', '2'],
        { cwd: root, env: { ...process.env, DATA_DIR: dataDir } },
        (err, stdout) => resolve({ code: err ? (err.code as number) : 0, stdout }),
      );
      child.stdin!.end(`${TEST_MNEMONIC}\n`);
    });
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`CUSTODY_EVM_XPUB=${TEST_EVM_XPUB}`);
    expect(out.stdout).toContain(`CUSTODY_TRON_XPUB=${TEST_TRON_XPUB}`);
    expect(out.stdout).toContain('0: 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(out.stdout).toContain('1: TPjjvMwjPoDC32V2dGDYTkLH4E5LAtBZ6C');
    expect(out.stdout).not.toContain(TEST_MNEMONIC);
    expect(existsSync(dataDir)).toBe(false);
  });
});
