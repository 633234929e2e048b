import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { parseAbiItem, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSignerConfig } from '../../../../signer/src/config';
import { deriveKeys } from '../../../../signer/src/keys';
import { readMnemonic } from '../../../../signer/src/mnemonic';
import { buildSigner } from '../../../../signer/src/run';
import { SweepCrash, type Sweeper } from '../../../../signer/src/sweeps';
import { TronNode } from '../../../../signer/src/tron';
import { createTestApp, testDbKind, type TestApp } from '../../test/app';
import { startAnvil, type Anvil } from '../../test/chain/anvil';
import { TEST_MNEMONIC, TEST_TRON_XPUB } from '../../test/chain/test-keys';
import { startTronFake, type TronFake } from '../../test/chain/tron-fake';
import { createUser } from '../../test/factories';
import { newDataDir } from '../../test/template-db';
import { ensureAddress } from '../custody/addresses';
import { readBalances } from '../custody/balances';
import { displayAddress } from '../custody/derive';
import { configureCustody } from '../custody/runtime';
import { watchOnce } from '../custody/watcher';
import { payoutView } from './service';

/**
 * The signer sweeps Tron deposit addresses through the Tron fake (custody.md section 6, "Sweeps";
 * issue 48): an address without TRX is first sent, from the Tron hot wallet, the TRX its token
 * transfer may burn (a TRX transfer the node builds and the signer checks before signing); once
 * that is solidified the deposit key sends the token to the hot wallet, or to the cold one once the
 * hot wallet holds HOT_TARGET_USD; the server records it once the transfer is solidified. Counted on
 * the chain: one top-up, one token transfer, one record per address, through a crash between the two.
 */
const TOKEN = randomBytes(32).toString('hex');
const SOLID = 19;
/** SIGNER_TRON_FEE_LIMIT_TRX (30) plus 1 TRX of bandwidth, in sun */
const TOP_UP = 31_000_000n;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

describe('the signer sweeps Tron deposit addresses, each once', () => {
  let anvil: Anvil;
  let fake: TronFake;
  let t: TestApp;
  let token: `0x${string}`;
  let signerEnv: Record<string, string>;
  const keys = deriveKeys(TEST_MNEMONIC, 5);
  const hot20 = `0x${keys.tronHot.address.slice(2)}` as Hex;
  const cold20 = `0x${randomBytes(20).toString('hex')}` as Hex;
  // One signer database for the file, opened again for each signer (a restart after a crash): a
  // copy of the run's migrated PGlite, to which the signer adds its tables instead of running initdb.
  const dataDir = path.join(newDataDir('sweep-tron-db-'), 'pglite');
  let databaseUrl: string | undefined;
  let pgAdmin: pg.Client | undefined;
  let signerDb: string | undefined;

  beforeAll(async () => {
    anvil = await startAnvil();
    token = await anvil.deployToken(6);
    fake = await startTronFake(anvil.url);
    t = await createTestApp({
      PAYMENTS_GATEWAY: 'chain',
      CUSTODY_TRON_XPUB: TEST_TRON_XPUB,
      CHAIN_TRON_API_URL: fake.url,
      CHAIN_TRON_USDT: displayAddress('tron', token),
      PAYOUTS: 'signer',
      SIGNER_TOKEN_HASH: createHash('sha256').update(TOKEN).digest('hex'),
      CUSTODY_HOT_TRON_ADDRESS: displayAddress('tron', hot20),
      SWEEP_COLD_TRON_ADDRESS: displayAddress('tron', cold20),
    });
    configureCustody(t.ctx, { tuning: { sleep: async () => undefined, startAt: () => 0n } });
    const serverUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // 1000 TRX for the top-ups (the fake counts anvil's wei / 10^12 as sun); no USDT yet.
    await anvil.rpc('anvil_setBalance', [hot20, `0x${(10n ** 21n).toString(16)}`]);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sweep-tron-'));
    const mnemonicFile = path.join(dir, 'mnemonic');
    writeFileSync(mnemonicFile, `${TEST_MNEMONIC}\n`, { mode: 0o600 });
    signerEnv = {
      SIGNER_MNEMONIC_FILE: mnemonicFile,
      SIGNER_SERVER_URL: serverUrl,
      SIGNER_TOKEN: TOKEN,
      CHAIN_TRON_API_URL: fake.url,
      CHAIN_TRON_USDT: displayAddress('tron', token),
      SIGNER_OWN_SCAN: '5',
      SIGNER_DATA_DIR: dataDir,
      SWEEP_MIN_USD: '10',
      HOT_TARGET_USD: '100',
      SWEEP_COLD_TRON_ADDRESS: displayAddress('tron', cold20),
    };
    if (testDbKind === 'postgres') {
      pgAdmin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await pgAdmin.connect();
      signerDb = `sweep_tron_${randomBytes(6).toString('hex')}`;
      await pgAdmin.query(`create database ${signerDb}`);
      const u = new URL(process.env.TEST_DATABASE_URL!);
      u.pathname = `/${signerDb}`;
      databaseUrl = u.toString();
    }
  });
  afterAll(async () => {
    if (signerDb) await pgAdmin?.query(`drop database if exists ${signerDb}`);
    await pgAdmin?.end();
    await t?.close();
    await fake?.close();
    await anvil?.close();
  });

  async function newSigner(): Promise<{ sweeper: Sweeper; close(): Promise<void> }> {
    const config = loadSignerConfig({ ...signerEnv, ...(databaseUrl ? { SIGNER_DATABASE_URL: databaseUrl } : {}) });
    const built = await buildSigner(config, readMnemonic(config.mnemonicFile), quiet);
    return { sweeper: built.sweeper, close: () => built.store.close() };
  }

  /** A user's Tron deposit address holding `usdt`, as the server's balances job then reads it. */
  async function depositHolding(usdt: bigint): Promise<Hex> {
    const u = await createUser(t.db, t.ctx.secret);
    const address = (await ensureAddress(t.ctx, u.id, 'tron')).hex as Hex;
    await anvil.mint(token, address, usdt * 1_000_000n);
    await anvil.mine(SOLID);
    await watchOnce(t.ctx, 'tron');
    await readBalances(t.ctx, 'tron');
    return address;
  }

  /** The TRX transfers the fake executed (TransferContract), by txID. */
  const trxTransfers = () => new Set([...fake.transactions.entries()].filter(([, x]) => x.trx && x.evmHash).map(([id]) => id));
  /** The deposit address's token transfers on the chain: [to, amount]. */
  async function outOf(address: Hex): Promise<[string, bigint][]> {
    const logs = await anvil.publicClient.getLogs({ address: token, event: TRANSFER, args: { from: address }, fromBlock: 0n });
    return logs.map((l) => [l.args.to!.toLowerCase(), l.args.value!]);
  }
  const recorded = (address: string) => t.db.selectFrom('custody_sweeps').selectAll().where('address', '=', address).execute();
  const trxOf = (address: Hex) => new TronNode(fake.url).trxBalance(`41${address.slice(2)}`);

  it('a TRX transfer the node built for another recipient is refused before it is signed', async () => {
    // A node that builds every TRX transfer to an attacker: a consistent transaction (its txID the sha256 of its bytes), just not the one asked for.
    const attacker = `41${randomBytes(20).toString('hex')}`;
    const lying = createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += String(c)));
      req.on('end', () => {
        const body = JSON.parse(text) as Record<string, unknown>;
        void fetch(`${fake.url}${req.url}`, { method: 'POST', body: JSON.stringify({ ...body, to_address: attacker }) })
          .then((r) => r.text())
          .then((out) => res.end(out));
      });
    });
    await new Promise<void>((r) => lying.listen(0, '127.0.0.1', r));
    try {
      const node = new TronNode(`http://127.0.0.1:${(lying.address() as { port: number }).port}`);
      const to = `41${randomBytes(20).toString('hex')}`;
      await expect(node.buildTrxTransfer({ owner: keys.tronHot.address, to, amount: 1_000_000n })).rejects.toThrow(/another transaction/);
      // The honest node's transfer of the same fields passes the same check.
      expect((await new TronNode(fake.url).buildTrxTransfer({ owner: keys.tronHot.address, to, amount: 1_000_000n })).txID).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await new Promise((r) => lying.close(r));
    }
  });

  it('tops up TRX once, sweeps the token to the hot wallet once it is solidified, recorded once', async () => {
    const address = await depositHolding(40n);
    const before = trxTransfers();
    const s = await newSigner();
    expect(await s.sweeper.tick()).toMatchObject({ toppedUp: 1, sent: 0 });
    expect(await trxOf(address)).toBe(TOP_UP);
    const [topUp] = [...trxTransfers()].filter((id) => !before.has(id));
    await anvil.mine(SOLID - 2); // 18 confirmations: the top-up is not solidified
    expect(await s.sweeper.tick()).toMatchObject({ toppedUp: 0, sent: 0 });
    await anvil.mine(1);
    expect(await s.sweeper.tick()).toMatchObject({ toppedUp: 0, sent: 1 });
    expect(await outOf(address)).toEqual([[hot20.toLowerCase(), 40_000_000n]]);
    await anvil.mine(SOLID - 2);
    expect(await s.sweeper.tick()).toMatchObject({ sent: 0, reported: 0 });
    expect(await recorded(address)).toEqual([]);
    await anvil.mine(1);
    expect(await s.sweeper.tick()).toMatchObject({ reported: 1 });
    // The server still lists the address (its balances job has not run again): nothing more is sent.
    expect(await s.sweeper.tick()).toMatchObject({ toppedUp: 0, sent: 0, reported: 0 });
    const rows = await recorded(address);
    expect(rows).toMatchObject([{ network: 'tron', destination: 'hot', amount_raw: '40000000', gas_tx: topUp }]);
    expect(rows[0]!.token_tx).toMatch(/^[0-9a-f]{64}$/);
    expect(fake.transactions.get(rows[0]!.token_tx)?.evmHash).toBeDefined();
    expect([...trxTransfers()].filter((id) => !before.has(id))).toEqual([topUp]);
    expect(await outOf(address)).toHaveLength(1);
    await s.close();
    // The operator's reconciliation counts Tron too: credited 40, swept to the hot wallet, none left on the address.
    await readBalances(t.ctx, 'tron');
    const tron = (await payoutView(t.ctx)).reconciliation.find((r) => r.network === 'tron');
    expect(tron).toMatchObject({ on_deposit_addresses: 0, swept_to_hot: 40, swept_to_cold: 0, credited: 40, paid_out: 0 });
  });

  it('a crash between the top-up and the token transfer: after the restart one top-up, one token transfer, recorded once', async () => {
    const address = await depositHolding(50n);
    const before = trxTransfers();
    const s = await newSigner();
    s.sweeper.crashAt = 'after-gas';
    await expect(s.sweeper.tick()).rejects.toBeInstanceOf(SweepCrash);
    await s.close();
    const again = await newSigner();
    // The stored top-up is followed, not sent again, until it is solidified.
    expect(await again.sweeper.tick()).toMatchObject({ toppedUp: 0, sent: 0 });
    expect(await trxOf(address)).toBe(TOP_UP);
    await anvil.mine(SOLID - 1);
    expect(await again.sweeper.tick()).toMatchObject({ toppedUp: 0, sent: 1 });
    await anvil.mine(SOLID - 1);
    expect(await again.sweeper.tick()).toMatchObject({ toppedUp: 0, sent: 0, reported: 1 });
    expect(await again.sweeper.tick()).toMatchObject({ toppedUp: 0, sent: 0, reported: 0 });
    expect([...trxTransfers()].filter((id) => !before.has(id))).toHaveLength(1);
    expect(await outOf(address)).toEqual([[hot20.toLowerCase(), 50_000_000n]]);
    expect(await recorded(address)).toMatchObject([{ destination: 'hot', amount_raw: '50000000' }]);
    await again.close();
  });

  it('a crash with the top-up signed and stored, not broadcast: the restarted signer broadcasts that same transaction', async () => {
    const address = await depositHolding(15n);
    const built = new Set(fake.transactions.keys());
    const s = await newSigner();
    s.sweeper.crashAt = 'gas-signed';
    await expect(s.sweeper.tick()).rejects.toBeInstanceOf(SweepCrash);
    await s.close();
    const [stored, ...more] = [...fake.transactions.keys()].filter((id) => !built.has(id));
    expect(more).toEqual([]);
    expect(fake.transactions.get(stored!)?.evmHash).toBeUndefined();
    expect(await trxOf(address)).toBe(0n);
    const again = await newSigner();
    expect(await again.sweeper.tick()).toMatchObject({ toppedUp: 0, sent: 0 });
    expect(fake.transactions.get(stored!)?.evmHash).toBeDefined();
    expect(await trxOf(address)).toBe(TOP_UP);
    await anvil.mine(SOLID - 1);
    expect(await again.sweeper.tick()).toMatchObject({ toppedUp: 0, sent: 1 });
    await anvil.mine(SOLID - 1);
    expect(await again.sweeper.tick()).toMatchObject({ reported: 1 });
    expect(await recorded(address)).toMatchObject([{ destination: 'hot', amount_raw: '15000000', gas_tx: stored }]);
    expect(await outOf(address)).toEqual([[hot20.toLowerCase(), 15_000_000n]]);
    await again.close();
  });

  it('to the cold wallet once the hot wallet holds HOT_TARGET_USD; no top-up where the address holds enough TRX', async () => {
    await anvil.mint(token, hot20, 100_000_000n); // with the 105 swept: 205 USDT, over the target of 100
    const address = await depositHolding(25n);
    await anvil.rpc('anvil_setBalance', [address, `0x${(TOP_UP * 10n ** 12n).toString(16)}`]);
    const before = trxTransfers();
    const s = await newSigner();
    expect(await s.sweeper.tick()).toMatchObject({ toppedUp: 0, sent: 1 });
    await anvil.mine(SOLID - 1);
    expect(await s.sweeper.tick()).toMatchObject({ reported: 1 });
    expect(await outOf(address)).toEqual([[cold20, 25_000_000n]]);
    expect(await recorded(address)).toMatchObject([{ network: 'tron', destination: 'cold', amount_raw: '25000000', gas_tx: null }]);
    expect([...trxTransfers()].filter((id) => !before.has(id))).toEqual([]);
    await s.close();
  });
});
