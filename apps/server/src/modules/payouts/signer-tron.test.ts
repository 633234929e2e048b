import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { admin } from '@app/core/contracts';
import pg from 'pg';
import { parseAbiItem, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSignerConfig } from '../../../../signer/src/config';
import { deriveKeys } from '../../../../signer/src/keys';
import { readMnemonic } from '../../../../signer/src/mnemonic';
import { SimulatedCrash, type PayoutSigner } from '../../../../signer/src/payouts';
import { buildSigner } from '../../../../signer/src/run';
import { signTronTx, TronNode } from '../../../../signer/src/tron';
import { inject } from '../../test/api';
import { createTestApp, testDbKind, type TestApp } from '../../test/app';
import { startAnvil, type Anvil } from '../../test/chain/anvil';
import { TEST_MNEMONIC, TEST_TRON_XPUB } from '../../test/chain/test-keys';
import { startTronFake, type TronFake } from '../../test/chain/tron-fake';
import { createUser, fundIncome } from '../../test/factories';
import { addressHex, displayAddress } from '../custody/derive';
import { configureCustody } from '../custody/runtime';
import { createWithdrawal } from '../withdrawals/service';
import { confirmPayouts } from './confirm';

/**
 * The signer pays Tron withdrawals through the Tron fake (a full node's documented HTTP API in front
 * of anvil; custody.md section 6): the node builds the TRC-20 transfer, the signer checks and signs
 * its txID, stores it before broadcasting, and never builds a second one while the first can still be
 * included (before its expiration plus the 19 blocks of solidification). The server completes it on
 * chain evidence, solidified. Paid exactly once, counted on the chain.
 */
const TOKEN = randomBytes(32).toString('hex');
const SOLID = 19;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

describe('the signer pays approved Tron withdrawals, each once', () => {
  let anvil: Anvil;
  let fake: TronFake;
  let t: TestApp;
  let token: `0x${string}`;
  let adminToken: string;
  let signerEnv: Record<string, string>;
  const keys = deriveKeys(TEST_MNEMONIC, 5);
  const hot20 = `0x${keys.tronHot.address.slice(2)}` as Hex;
  // One signer database for the file, as in production (its attempt numbers are the Tron nonces on record).
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'signer-tron-db-'));
  let databaseUrl: string | undefined;
  let pgAdmin: pg.Client | undefined;

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
      RATE_LIMIT_MONEY_PER_MIN: '100000',
    });
    configureCustody(t.ctx, { tuning: { sleep: async () => undefined, startAt: () => 0n } });
    const serverUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    adminToken = (await createUser(t.db, t.ctx.secret, { isAdmin: true })).token;
    // 1000 TRX for energy (the fake counts anvil's wei / 10^12 as sun), 100,000 USDT.
    await anvil.rpc('anvil_setBalance', [hot20, `0x${(10n ** 21n).toString(16)}`]);
    await anvil.mint(token, hot20, 100_000_000_000n);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'signer-tron-'));
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
    };
    if (testDbKind === 'postgres') {
      pgAdmin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await pgAdmin.connect();
      const name = `signer_tron_${randomBytes(6).toString('hex')}`;
      await pgAdmin.query(`create database ${name}`);
      const u = new URL(process.env.TEST_DATABASE_URL!);
      u.pathname = `/${name}`;
      databaseUrl = u.toString();
    }
  });
  afterAll(async () => {
    await pgAdmin?.end();
    await t?.close();
    await fake?.close();
    await anvil?.close();
  });

  /** The signer on the file's database (a new process each time: what a restart after a kill -9 is). */
  async function newSigner(): Promise<{ signer: PayoutSigner; close(): Promise<void> }> {
    const config = loadSignerConfig({ ...signerEnv, ...(databaseUrl ? { SIGNER_DATABASE_URL: databaseUrl } : {}) });
    const built = await buildSigner(config, readMnemonic(config.mnemonicFile), quiet);
    return { signer: built.signer, close: () => built.store.close() };
  }

  async function approvedWithdrawal(amount: number): Promise<{ id: string; to: string }> {
    const u = await createUser(t.db, t.ctx.secret);
    await fundIncome(t.db, u.id, amount);
    const to = `0x${randomBytes(20).toString('hex')}`;
    const { id } = await createWithdrawal(t.db, u.id, { amount_usd: amount, network: 'TRON', wallet_address: displayAddress('tron', to), token: 'USDT' });
    const res = await inject(t.app, admin.approveWithdrawal, { params: { id: String(id) }, token: adminToken });
    expect(res.statusCode).toBe(200);
    expect(res.data()).toMatchObject({ status: 'approved' });
    return { id: String(id), to };
  }

  const row = (id: string) => t.db.selectFrom('withdrawals').selectAll().where('id', '=', BigInt(id)).executeTakeFirstOrThrow();
  /** The hot address's token transfers to `to`, on the chain. */
  async function paidOnChain(to: string): Promise<bigint[]> {
    const logs = await anvil.publicClient.getLogs({ address: token, event: TRANSFER, args: { from: hot20, to: to as Hex }, fromBlock: 0n });
    return logs.map((l) => l.args.value!);
  }
  const receive = (amount: number) => BigInt(amount * 950_000);
  /** Transactions the fake built and executed on anvil. */
  const executed = () => [...fake.transactions.entries()].filter(([, x]) => x.evmHash).map(([id]) => id);

  it('pays an approved Tron withdrawal once: sent with its txID, completed only once solidified', async () => {
    const w = await approvedWithdrawal(20);
    const s = await newSigner();
    expect(await s.signer.tick()).toMatchObject({ signed: 1 });
    const sent = await row(w.id);
    expect(sent).toMatchObject({ status: 'sent', tx_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(executed()).toContain(sent.tx_hash);
    await anvil.mine(SOLID - 2); // 18 confirmations: not solidified
    expect((await confirmPayouts(t.ctx)).completed).toBe(0);
    await anvil.mine(1);
    expect((await confirmPayouts(t.ctx)).completed).toBe(1);
    expect(await row(w.id)).toMatchObject({ status: 'completed', tx_hash: sent.tx_hash });
    expect(await s.signer.tick()).toMatchObject({ signed: 0, rebroadcast: 0 });
    expect(await paidOnChain(w.to)).toEqual([receive(20)]);
    await s.close();
  });

  it('crash after signing, before broadcasting: the restarted signer broadcasts the same transaction; paid once', async () => {
    const w = await approvedWithdrawal(50);
    const before = new Set(fake.transactions.keys());
    const s = await newSigner();
    s.signer.crashAt = 'after-sign';
    await expect(s.signer.tick()).rejects.toBeInstanceOf(SimulatedCrash);
    await s.close();
    const built = [...fake.transactions.keys()].filter((k) => !before.has(k));
    expect(built).toHaveLength(1);
    expect(fake.transactions.get(built[0]!)!.evmHash).toBeUndefined();
    expect(await row(w.id)).toMatchObject({ status: 'approved' });
    const again = await newSigner();
    expect(await again.signer.tick()).toMatchObject({ signed: 0, rebroadcast: 1 });
    expect(await row(w.id)).toMatchObject({ status: 'sent', tx_hash: built[0] });
    // Broadcasting it again is harmless: the node knows it (DUP_TRANSACTION_ERROR), nothing new is signed.
    await again.signer.tick();
    await anvil.mine(SOLID);
    expect((await confirmPayouts(t.ctx)).completed).toBe(1);
    expect(await row(w.id)).toMatchObject({ status: 'completed', tx_hash: built[0] });
    expect(await paidOnChain(w.to)).toEqual([receive(50)]);
    expect([...fake.transactions.keys()].filter((k) => !before.has(k))).toEqual(built);
    await again.close();
  });

  it('an expired, unbroadcast transaction is replaced only once its expiration is 19 blocks deep and it is in no block', async () => {
    const w = await approvedWithdrawal(30);
    const before = new Set(fake.transactions.keys());
    const s = await newSigner();
    s.signer.crashAt = 'after-sign';
    await expect(s.signer.tick()).rejects.toBeInstanceOf(SimulatedCrash);
    await s.close();
    const [first] = [...fake.transactions.keys()].filter((k) => !before.has(k));
    // The signer is down past the transaction's expiration (60 s after its reference block).
    await anvil.rpc('evm_increaseTime', [120]);
    await anvil.mine(1); // the first block past the expiration
    const again = await newSigner();
    // Too late to broadcast, and not dead yet: the blocks up to its expiration are not all solidified.
    expect(await again.signer.tick()).toMatchObject({ signed: 0, rebroadcast: 0, dead: 0 });
    await anvil.mine(SOLID - 2);
    expect(await again.signer.tick()).toMatchObject({ signed: 0, rebroadcast: 0, dead: 0 });
    expect(await row(w.id)).toMatchObject({ status: 'approved' });
    await anvil.mine(1); // the first block past the expiration is solidified: the old one can never be included
    expect(await again.signer.tick()).toMatchObject({ signed: 0, dead: 1 });
    expect(await again.signer.tick()).toMatchObject({ signed: 1 });
    const sent = await row(w.id);
    expect(sent.status).toBe('sent');
    expect(sent.tx_hash).not.toBe(first);
    await anvil.mine(SOLID);
    expect((await confirmPayouts(t.ctx)).completed).toBe(1);
    expect(await paidOnChain(w.to)).toEqual([receive(30)]);
    expect(fake.transactions.get(first!)!.evmHash).toBeUndefined();
    await again.close();
    // The old transaction, signed and stored, is refused by the node for good.
    const old = await readSigned(first!);
    expect(await new TronNode(fake.url).post('/wallet/broadcasttransaction', old)).toMatchObject({ code: 'TRANSACTION_EXPIRATION_ERROR' });
  });

  /** The signed transaction the signer stored under this txID (its database opened alone). */
  async function readSigned(txID: string) {
    const config = loadSignerConfig({ ...signerEnv, ...(databaseUrl ? { SIGNER_DATABASE_URL: databaseUrl } : {}) });
    const built = await buildSigner(config, readMnemonic(config.mnemonicFile), quiet);
    try {
      const r = await built.store.query<{ raw: string }>('select raw from signed_txs where hash = $1', [txID]);
      return JSON.parse(r[0]!.raw) as unknown;
    } finally {
      await built.store.close();
    }
  }

  it('a forged signature is refused by the node, and nothing moves', async () => {
    const node = new TronNode(fake.url);
    const to = `41${randomBytes(20).toString('hex')}`;
    const unsigned = await node.buildTransfer({ owner: keys.tronHot.address, token: `41${token.slice(2)}`, to, raw: 1_000_000n, feeLimit: 30_000_000 });
    // Signed by another key.
    const forged = signTronTx(unsigned, randomBytes(32));
    await expect(node.broadcast(forged)).rejects.toThrow(/SIGERROR/);
    // Signed by the hot key, then its amount changed: the txID no longer matches raw_data.
    const good = signTronTx(unsigned, keys.tronHot.privateKey);
    const tampered = structuredClone(good);
    const value = tampered.raw_data.contract[0]!.parameter.value;
    value.data = `${value.data.slice(0, -8)}ffffffff`;
    await expect(node.broadcast(tampered)).rejects.toThrow(/SIGERROR/);
    // A signature of garbage.
    await expect(node.broadcast({ ...unsigned, signature: ['00'.repeat(65)] })).rejects.toThrow(/SIGERROR/);
    expect(await paidOnChain(`0x${to.slice(2)}`)).toEqual([]);
    // The hot key's own signature is accepted (the fake is not refusing everything).
    expect(await node.broadcast(good)).toBe('sent');
    // anvil mines a sent transaction right after answering, not before: wait for its receipt (on a
    // busy machine the logs were read before the block was there, and showed no transfer).
    const evmHash = fake.transactions.get(good.txID)?.evmHash;
    expect(evmHash).toMatch(/^0x[0-9a-f]{64}$/);
    await anvil.publicClient.waitForTransactionReceipt({ hash: evmHash as Hex, pollingInterval: 50 });
    expect(await paidOnChain(`0x${to.slice(2)}`)).toEqual([1_000_000n]);
    expect(addressHex('tron', displayAddress('tron', hot20))).toBe(hot20);
  });
});
