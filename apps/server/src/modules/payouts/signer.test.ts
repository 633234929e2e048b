import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { admin, signer as signerContracts } from '@app/core/contracts';
import pg from 'pg';
import { encodeAbiParameters, erc20Abi, keccak256, parseAbiItem, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSignerConfig, SignerConfigError } from '../../../../signer/src/config';
import { readMnemonic } from '../../../../signer/src/mnemonic';
import { deriveKeys } from '../../../../signer/src/keys';
import { buildSigner } from '../../../../signer/src/run';
import { serverApi, type ServerApi } from '../../../../signer/src/server-api';
import { openStore } from '../../../../signer/src/store';
import { SimulatedCrash, type PayoutSigner } from '../../../../signer/src/payouts';
import { SweepCrash, type Sweeper } from '../../../../signer/src/sweeps';
import { inject } from '../../test/api';
import { createTestApp, testDbKind, type TestApp } from '../../test/app';
import { startAnvil, type Anvil } from '../../test/chain/anvil';
import { TEST_EVM_XPUB, TEST_HOT_EVM_ADDRESS, TEST_MNEMONIC } from '../../test/chain/test-keys';
import { createUser, fundIncome, type TestUser } from '../../test/factories';
import { configureCustody } from '../custody/runtime';
import { evmClient } from '../custody/rpc/client';
import { httpTransport, type RpcTransport } from '../custody/rpc/json-rpc';
import { ensureAddress } from '../custody/addresses';
import { readBalances } from '../custody/balances';
import { watchOnce } from '../custody/watcher';
import { createWithdrawal } from '../withdrawals/service';
import { confirmPayouts } from './confirm';

/**
 * The signer against the real server on anvil (custody.md section 6, issue 48): approved
 * withdrawals paid exactly once each, counted on the chain (the hot address's outgoing transfers),
 * through crashes between signing, broadcasting and reporting, a stuck transaction, a revert, and
 * the signer's own limits. The signer's database is PGlite, or a fresh PostgreSQL database on the
 * PostgreSQL run.
 */
const TOKEN = randomBytes(32).toString('hex');
const DEPTH = 2;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

describe('the signer pays approved withdrawals on chain, each once', () => {
  let anvil: Anvil;
  let t: TestApp;
  let token: `0x${string}`;
  let adminToken: string;
  let serverUrl: string;
  let signerEnv: Record<string, string>;
  const keys = deriveKeys(TEST_MNEMONIC, 5);
  const hot = keys.hot.address.toLowerCase();
  const stores: { close(): Promise<void> }[] = [];
  let pgAdmin: pg.Client | undefined;
  let template: string | undefined;

  beforeAll(async () => {
    anvil = await startAnvil();
    token = await anvil.deployToken(18);
    t = await createTestApp({
      PAYMENTS_GATEWAY: 'chain',
      CUSTODY_EVM_XPUB: TEST_EVM_XPUB,
      CHAIN_BSC_RPC_URL: anvil.url,
      CHAIN_BSC_USDT: token,
      CHAIN_BSC_CONFIRMATIONS: String(DEPTH),
      PAYOUTS: 'signer',
      SIGNER_TOKEN_HASH: createHash('sha256').update(TOKEN).digest('hex'),
      CUSTODY_HOT_EVM_ADDRESS: keys.hot.address,
      RATE_LIMIT_MONEY_PER_MIN: '100000',
    });
    configureCustody(t.ctx, { tuning: { sleep: async () => undefined, startAt: () => 0n } });
    serverUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    adminToken = (await createUser(t.db, t.ctx.secret, { isAdmin: true })).token;
    await anvil.rpc('anvil_setBalance', [keys.hot.address, '0x56BC75E2D63100000']);
    await anvil.mint(token, hot, 10n ** 18n * 100_000n);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'signer-test-'));
    const mnemonicFile = path.join(dir, 'mnemonic');
    writeFileSync(mnemonicFile, `${TEST_MNEMONIC}\n`, { mode: 0o600 });
    signerEnv = {
      SIGNER_MNEMONIC_FILE: mnemonicFile,
      SIGNER_SERVER_URL: serverUrl,
      SIGNER_TOKEN: TOKEN,
      CHAIN_BSC_RPC_URL: anvil.url,
      CHAIN_BSC_USDT: token,
      SIGNER_OWN_SCAN: '5',
      SIGNER_MAX_PAYOUT_USD: '1000',
      SIGNER_DAILY_LIMIT_USD: '100000',
      CHAIN_BSC_CONFIRMATIONS: String(DEPTH),
    };
    if (testDbKind === 'postgres') {
      pgAdmin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await pgAdmin.connect();
    }
  });
  afterAll(async () => {
    for (const s of stores) await s.close().catch(() => undefined);
    await pgAdmin?.end();
    await t?.close();
    await anvil?.close();
  });

  /**
   * A signer with its own fresh database (or the one given: a restart after a crash). On PGlite a
   * copy of one migrated data directory: a new PGlite directory runs initdb, ten seconds on a busy
   * two-core machine, where a copy opens in one.
   */
  async function newSigner(
    env: Record<string, string> = {},
    dataDir?: string,
    wrapApi?: (real: ServerApi) => ServerApi,
  ): Promise<{ signer: PayoutSigner; sweeper: Sweeper; dataDir: string; close(): Promise<void> }> {
    const dir = dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'signer-db-'));
    if (!dataDir && !pgAdmin) {
      if (!template) {
        template = mkdtempSync(path.join(os.tmpdir(), 'signer-template-'));
        await (await openStore({ dataDir: template })).close();
      }
      cpSync(template, dir, { recursive: true });
    }
    let databaseUrl: string | undefined;
    if (pgAdmin) {
      const name = `signer_${path
        .basename(dir)
        .replace(/[^a-z0-9]/gi, '')
        .toLowerCase()}`;
      if (!dataDir) await pgAdmin.query(`create database ${name}`);
      const u = new URL(process.env.TEST_DATABASE_URL!);
      u.pathname = `/${name}`;
      databaseUrl = u.toString();
    }
    const config = loadSignerConfig({ ...signerEnv, SIGNER_DATA_DIR: dir, ...(databaseUrl ? { SIGNER_DATABASE_URL: databaseUrl } : {}), ...env });
    const real = serverApi(config.serverUrl, config.token);
    const built = await buildSigner(config, readMnemonic(config.mnemonicFile), quiet, { api: wrapApi ? wrapApi(real) : real });
    stores.push(built.store);
    return { signer: built.signer, sweeper: built.sweeper, dataDir: dir, close: () => built.store.close() };
  }

  async function approvedWithdrawal(receive: { amount: number; to?: string; from?: TestUser } = { amount: 20 }): Promise<{ id: string; to: string }> {
    const u = receive.from ?? (await createUser(t.db, t.ctx.secret));
    if (!receive.from) await fundIncome(t.db, u.id, receive.amount);
    const to = receive.to ?? `0x${randomBytes(20).toString('hex')}`;
    const { id } = await createWithdrawal(t.db, u.id, { amount_usd: receive.amount, network: 'BSC', wallet_address: to, token: 'USDT' });
    const res = await inject(t.app, admin.approveWithdrawal, { params: { id: String(id) }, token: adminToken });
    expect(res.statusCode).toBe(200);
    expect(res.data()).toMatchObject({ status: 'approved', can_approve: false });
    return { id: String(id), to: to.toLowerCase() };
  }

  const row = (id: string) => t.db.selectFrom('withdrawals').selectAll().where('id', '=', BigInt(id)).executeTakeFirstOrThrow();
  /** The hot address's outgoing token transfers to `to`, on the chain. */
  async function paidOnChain(to: string): Promise<bigint[]> {
    const logs = await anvil.publicClient.getLogs({ address: token, event: TRANSFER, args: { from: keys.hot.address, to: to as Hex }, fromBlock: 0n });
    return logs.map((l) => l.args.value!);
  }
  /** Mines past the depth and lets the server's payout watcher run. */
  async function settle() {
    await anvil.mine(DEPTH + 1);
    return confirmPayouts(t.ctx);
  }
  const receive = (amount: number) => (BigInt(amount * 95) * 10n ** 18n) / 100n;

  it('pays three approved withdrawals once each; the server completes them on chain evidence only', async () => {
    const ws = [await approvedWithdrawal({ amount: 20 }), await approvedWithdrawal({ amount: 30 }), await approvedWithdrawal({ amount: 40 })];
    const s = await newSigner();
    expect((await s.signer.tick()).signed).toBe(3);
    for (const w of ws) expect(await row(w.id)).toMatchObject({ status: 'sent', tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect((await settle()).completed).toBe(3);
    await s.signer.tick();
    await settle();
    for (const [i, w] of ws.entries()) {
      expect(await row(w.id)).toMatchObject({ status: 'completed' });
      expect(await paidOnChain(w.to)).toEqual([receive([20, 30, 40][i]!)]);
    }
    const mails = await t.db
      .selectFrom('mail_outbox')
      .select('kind')
      .where('kind', 'in', ['withdrawal_approved', 'withdrawal_sent', 'withdrawal_completed'])
      .execute();
    expect(mails.filter((m) => m.kind === 'withdrawal_sent').length).toBeGreaterThanOrEqual(3);
    await s.close();
  });

  it('crash after signing, before broadcasting: the restarted signer broadcasts the same bytes; paid once', async () => {
    const w = await approvedWithdrawal({ amount: 50 });
    const s = await newSigner();
    s.signer.crashAt = 'after-sign';
    await expect(s.signer.tick()).rejects.toBeInstanceOf(SimulatedCrash);
    await s.close();
    expect(await row(w.id)).toMatchObject({ status: 'approved' });
    expect(await paidOnChain(w.to)).toEqual([]);
    const again = await newSigner({}, s.dataDir);
    const r = await again.signer.tick();
    expect(r).toMatchObject({ signed: 0, rebroadcast: 1 });
    await settle();
    expect(await row(w.id)).toMatchObject({ status: 'completed' });
    expect(await paidOnChain(w.to)).toEqual([receive(50)]);
    await again.close();
  });

  it('crash after broadcasting: the server already has it as sent (claimed before broadcast); the restart re-sends the same bytes; paid once', async () => {
    const w = await approvedWithdrawal({ amount: 60 });
    const s = await newSigner();
    s.signer.crashAt = 'after-broadcast';
    await expect(s.signer.tick()).rejects.toBeInstanceOf(SimulatedCrash);
    await s.close();
    expect(await row(w.id)).toMatchObject({ status: 'sent' });
    const again = await newSigner({}, s.dataDir);
    expect(await again.signer.tick()).toMatchObject({ signed: 0 });
    expect(await row(w.id)).toMatchObject({ status: 'sent' });
    await settle();
    expect(await row(w.id)).toMatchObject({ status: 'completed' });
    expect(await paidOnChain(w.to)).toEqual([receive(60)]);
    await again.close();
  });

  it('a withdrawal rejected between signing and sending is never sent, and its nonce pays the next one', async () => {
    // 1. The admin rejects while the signer is down between signing and claiming.
    const first = await approvedWithdrawal({ amount: 20 });
    const s = await newSigner();
    s.signer.crashAt = 'after-sign';
    await expect(s.signer.tick()).rejects.toBeInstanceOf(SimulatedCrash);
    await s.close();
    expect((await inject(t.app, admin.rejectWithdrawal, { params: { id: first.id }, body: { reason: 'changed my mind' }, token: adminToken })).statusCode).toBe(
      200,
    );
    // 2. The admin rejects just before the signer's claim arrives (the claim is refused).
    const second = await approvedWithdrawal({ amount: 30 });
    const racing = await newSigner({}, s.dataDir, (real) => ({
      ...real,
      report: async (id, report) => {
        if (id === second.id && report.state === 'sent')
          await inject(t.app, admin.rejectWithdrawal, { params: { id: second.id }, body: { reason: 'too late' }, token: adminToken });
        return real.report(id, report);
      },
    }));
    await racing.signer.tick();
    expect(await row(second.id)).toMatchObject({ status: 'rejected' });
    // 3. The next payout takes the nonce nobody used: were it skipped, this one would wait behind it for good.
    const third = await approvedWithdrawal({ amount: 40 });
    expect(await racing.signer.tick()).toMatchObject({ signed: 1 });
    await settle();
    expect(await row(third.id)).toMatchObject({ status: 'completed' });
    expect(await paidOnChain(first.to)).toEqual([]);
    expect(await paidOnChain(second.to)).toEqual([]);
    expect(await paidOnChain(third.to)).toEqual([receive(40)]);
    await racing.close();
  });

  it('a stuck transaction is replaced under its nonce; only one is mined, and the server follows the new hash', async () => {
    await anvil.rpc('evm_setAutomine', [false]);
    try {
      const w = await approvedWithdrawal({ amount: 70 });
      const s = await newSigner({ SIGNER_STUCK_AFTER_S: '0' });
      await s.signer.tick();
      const first = await row(w.id);
      expect(first.status).toBe('sent');
      expect(await s.signer.tick()).toMatchObject({ replaced: 1, signed: 0 });
      const second = await row(w.id);
      expect(second.payout_nonce).toBe(first.payout_nonce);
      expect(second.tx_hash).not.toBe(first.tx_hash);
      await anvil.mine(1);
      await settle();
      expect(await row(w.id)).toMatchObject({ status: 'completed', tx_hash: second.tx_hash });
      expect(await paidOnChain(w.to)).toEqual([receive(70)]);
      expect(await anvil.publicClient.getTransactionReceipt({ hash: first.tx_hash as Hex }).catch(() => null)).toBeNull();
      await s.close();
    } finally {
      await anvil.rpc('evm_setAutomine', [true]);
    }
  });

  it('a reverted payout goes back to approved with the reason, waits for a refill, and is then paid once', async () => {
    await anvil.rpc('evm_setAutomine', [false]);
    const slot = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [keys.hot.address, 3n]));
    const balance = await anvil.rpc<Hex>('eth_getStorageAt', [token, slot, 'latest']);
    let w: { id: string; to: string };
    let s: Awaited<ReturnType<typeof newSigner>>;
    try {
      w = await approvedWithdrawal({ amount: 80 });
      s = await newSigner();
      await s.signer.tick();
      // The hot wallet loses its tokens before the block: the transfer reverts.
      await anvil.rpc('anvil_setStorageAt', [token, slot, `0x${'0'.repeat(64)}`]);
      await anvil.mine(1);
    } finally {
      await anvil.rpc('evm_setAutomine', [true]);
    }
    await settle();
    const back = await row(w.id);
    expect(back).toMatchObject({ status: 'approved', payout_nonce: null, tx_hash: null });
    expect(back.payout_note).toMatch(/reverted/);
    expect(await s.signer.tick()).toMatchObject({ signed: 0, dead: 1 });
    expect(await s.signer.tick()).toMatchObject({ signed: 0, held: 1 });
    expect((await row(w.id)).payout_note).toMatch(/Held by the signer: the hot wallet does not hold enough USDT/);
    await anvil.rpc('anvil_setStorageAt', [token, slot, balance]);
    expect(await s.signer.tick()).toMatchObject({ signed: 1 });
    await settle();
    expect(await row(w.id)).toMatchObject({ status: 'completed' });
    expect(await paidOnChain(w.to)).toEqual([receive(80)]);
    await s.close();
  });

  it('pays only up to its daily limit; the rest is held with the reason and waits', async () => {
    const ws = [];
    // One user asking 20 times, four times what the limit pays (a user each would only add sign-ups
    // to the test's time; 100 approvals took 17 s of it and proved nothing 20 do not).
    const many = await createUser(t.db, t.ctx.secret);
    await fundIncome(t.db, many.id, 200);
    for (let i = 0; i < 20; i++) ws.push(await approvedWithdrawal({ amount: 10, from: many }));
    const s = await newSigner({ SIGNER_DAILY_LIMIT_USD: '47.5' }); // five payouts of 9.50
    const r = await s.signer.tick();
    expect(r).toMatchObject({ signed: 5, held: 15 });
    await settle();
    const rows = await Promise.all(ws.map((w) => row(w.id)));
    expect(rows.filter((x) => x.status === 'completed')).toHaveLength(5);
    const held = rows.filter((x) => x.status === 'approved');
    expect(held).toHaveLength(15);
    expect(held[0]!.payout_note).toMatch(/daily limit/);
    let paid = 0;
    for (const w of ws) paid += (await paidOnChain(w.to)).length;
    expect(paid).toBe(5);
    // Nothing more while the day lasts.
    expect(await s.signer.tick()).toMatchObject({ signed: 0 });
    await s.close();
    // Out of the way of the next tests.
    for (const x of held) await inject(t.app, admin.rejectWithdrawal, { params: { id: String(x.id) }, body: { reason: 'test over' }, token: adminToken });
  });

  it('never pays one of our own addresses, nor over its per-payout limit', async () => {
    const own = await approvedWithdrawal({ amount: 20, to: keys.hot.address });
    const big = await approvedWithdrawal({ amount: 2000 });
    const s = await newSigner();
    expect(await s.signer.tick()).toMatchObject({ signed: 0, held: 2 });
    expect((await row(own.id)).payout_note).toMatch(/our own addresses/);
    expect((await row(big.id)).payout_note).toMatch(/limit of 1000.00 USD per payout/);
    expect(await paidOnChain(keys.hot.address.toLowerCase())).toEqual([]);
    await s.close();
    for (const x of [own, big]) await inject(t.app, admin.rejectWithdrawal, { params: { id: x.id }, body: { reason: 'test over' }, token: adminToken });
  });

  it('sweeps a deposit address once: gas topped up, a crash between gas and token, the token to the hot wallet, recorded and reconciled', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    const address = (await ensureAddress(t.ctx, u.id, 'evm')).hex;
    // A dev account of the test mnemonic: emptied of gas, so the sweep must top it up first.
    await anvil.rpc('anvil_setBalance', [address, '0x0']);
    await anvil.mint(token, address, receive(40));
    await anvil.mine(DEPTH);
    for (let i = 0; i < 3; i++) await watchOnce(t.ctx, 'bsc');
    await readBalances(t.ctx, 'bsc');
    const hotBefore = await anvil.publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [keys.hot.address] });
    const s = await newSigner();
    s.sweeper.crashAt = 'after-gas';
    await expect(s.sweeper.tick()).rejects.toBeInstanceOf(SweepCrash);
    await s.close();
    const again = await newSigner({}, s.dataDir);
    // The top-up is mined, not final yet: nothing more, and no second top-up.
    expect(await again.sweeper.tick()).toMatchObject({ toppedUp: 0, sent: 0 });
    await anvil.mine(DEPTH);
    expect(await again.sweeper.tick()).toMatchObject({ toppedUp: 0, sent: 1 });
    await anvil.mine(DEPTH);
    expect(await again.sweeper.tick()).toMatchObject({ reported: 1 });
    expect(await again.sweeper.tick()).toMatchObject({ toppedUp: 0, sent: 0, reported: 0 });
    const sweeps = await t.db.selectFrom('custody_sweeps').selectAll().execute();
    expect(sweeps).toMatchObject([{ network: 'bsc', address, destination: 'hot', amount_raw: String(receive(40)) }]);
    const out = await anvil.publicClient.getLogs({ address: token, event: TRANSFER, args: { from: address as Hex }, fromBlock: 0n });
    expect(out.map((l) => [l.args.to!.toLowerCase(), l.args.value])).toEqual([[hot, receive(40)]]);
    const hotAfter = await anvil.publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [keys.hot.address] });
    expect(hotAfter - hotBefore).toBe(receive(40));
    await readBalances(t.ctx, 'bsc');
    const view = await inject(t.app, admin.custody, { token: adminToken });
    const bsc = view.data().networks.find((n) => n.network === 'bsc')!;
    expect(bsc.reconciliation).toMatchObject({ flagged: false, difference: 0 });
    await again.close();
  });

  it('a payout one endpoint calls reverted is not completed: the endpoints must agree (trust no single node)', async () => {
    const w = await approvedWithdrawal({ amount: 30 });
    const s = await newSigner();
    await s.signer.tick();
    const honest = evmClient(anvil.url);
    // An endpoint that says every receipt failed.
    const lying: RpcTransport = async (body, opts) => {
      const res = await httpTransport(anvil.url)(body, opts);
      const methods = new Map<unknown, string>((Array.isArray(body) ? body : [body]).map((r) => [r.id, r.method]));
      for (const r of Array.isArray(res) ? res : [res])
        if (methods.get(r.id) === 'eth_getTransactionReceipt' && r.result && typeof r.result === 'object') (r.result as { status: string }).status = '0x0';
      return res;
    };
    configureCustody(t.ctx, { verifiers: { bsc: [honest, evmClient(lying)] } });
    try {
      await anvil.mine(DEPTH + 1);
      expect(await confirmPayouts(t.ctx)).toMatchObject({ completed: 0, reverted: 0 });
      const held = await row(w.id);
      expect(held).toMatchObject({ status: 'sent' });
      expect(held.payout_note).toMatch(/endpoints disagree/);
    } finally {
      configureCustody(t.ctx, { verifiers: { bsc: [honest] } });
    }
    expect((await confirmPayouts(t.ctx)).completed).toBe(1);
    expect(await paidOnChain(w.to)).toEqual([receive(30)]);
    await s.close();
  });

  it("the operator's view: the queue, the signer's last contact, its limits used today, the hot wallet and the reconciliation", async () => {
    const w = await approvedWithdrawal({ amount: 40 });
    const s = await newSigner();
    await s.signer.tick();
    const v = (await inject(t.app, admin.payouts, { token: adminToken })).data();
    expect(v.mode).toBe('signer');
    expect(v.queue.sent).toBeGreaterThanOrEqual(1);
    expect(Date.now() - new Date(v.signer!.last_contact_at).getTime()).toBeLessThan(60_000);
    const bsc = v.signer!.limits.find((l) => l.network === 'bsc')!;
    expect(bsc).toMatchObject({ limit: 100_000, max_payout: 1_000 });
    expect(bsc.used).toBeGreaterThanOrEqual(38);
    expect(v.signer!.hot[0]).toMatchObject({ network: 'bsc', address: hot, gas: expect.stringMatching(/^\d+\.\d{6} BNB$/) });
    const r = v.reconciliation.find((x) => x.network === 'bsc')!;
    // The hot wallet was funded from outside (a refill): the formula shows it as the difference.
    expect(r.difference).toBeCloseTo(r.on_deposit_addresses + r.hot! + r.swept_to_cold - (r.credited - r.paid_out), 6);
    expect(r.flagged).toBe(r.difference !== 0);
    // A user's token gets nothing there.
    const u = await createUser(t.db, t.ctx.secret);
    expect((await inject(t.app, admin.payouts, { token: u.token })).statusCode).toBe(403);
    await settle();
    expect(await row(w.id)).toMatchObject({ status: 'completed' });
    await s.close();
  });

  it('the internal routes take the signer token only, and a report only for the nonce on record', async () => {
    const w = await approvedWithdrawal({ amount: 20 });
    const user = await createUser(t.db, t.ctx.secret);
    // Every internal route, each with a body it would take from the signer: no token, an admin's,
    // a user's, or a token one character off get 401 and change nothing.
    const bodies: Record<keyof typeof signerContracts, { url: string; body?: Record<string, unknown> }> = {
      payouts: { url: '/api/internal/signer/payouts' },
      report: { url: `/api/internal/signer/payouts/${w.id}/report`, body: { state: 'held', reason: 'forged' } },
      sweeps: { url: '/api/internal/signer/sweeps' },
      sweepReport: {
        url: '/api/internal/signer/sweeps/report',
        body: { network: 'bsc', address: `0x${'11'.repeat(20)}`, amount_raw: '1', destination: 'cold', gas_tx: null, token_tx: `0x${'ee'.repeat(32)}` },
      },
      heartbeat: { url: '/api/internal/signer/heartbeat', body: { limits: [], hot: [] } },
    };
    const offByOne = `${TOKEN.slice(0, -1)}${TOKEN.endsWith('0') ? '1' : '0'}`;
    for (const [name, c] of Object.entries(signerContracts)) {
      const { url, body } = bodies[name as keyof typeof signerContracts];
      expect(c.path, name).toBe(url.replace(/^\/api/, '').replace(`/${w.id}/`, '/:id/'));
      for (const token of [undefined, adminToken, user.token, offByOne]) {
        const res = await t.app.inject({
          method: c.method,
          url,
          ...(body ? { payload: body } : {}),
          headers: token ? { authorization: `Bearer ${token}` } : {},
        });
        expect({ name, token: token?.slice(0, 6), status: res.statusCode }).toEqual({ name, token: token?.slice(0, 6), status: 401 });
      }
    }
    expect(await row(w.id)).toMatchObject({ status: 'approved', payout_note: null });
    const hash = `0x${'ab'.repeat(32)}`;
    const report = (body: Record<string, unknown>) => inject(t.app, signerContracts.report, { params: { id: w.id }, body, token: TOKEN });
    expect((await report({ state: 'failed', nonce: '7', tx_hash: hash, reason: 'x' })).statusCode).toBe(409);
    expect((await report({ state: 'sent', nonce: '7', tx_hash: hash })).statusCode).toBe(200);
    expect((await report({ state: 'sent', nonce: '8', tx_hash: hash })).json()).toMatchObject({ success: false, code: 'CONFLICT' });
    expect((await report({ state: 'held', reason: 'x' })).statusCode).toBe(409);
    expect((await report({ state: 'sent', nonce: '7', tx_hash: `0x${'cd'.repeat(32)}` })).statusCode).toBe(200);
    expect(await row(w.id)).toMatchObject({ status: 'sent', payout_nonce: 7n, tx_hash: `0x${'cd'.repeat(32)}` });
    expect((await report({ state: 'failed', nonce: '7', tx_hash: hash, reason: 'nonce taken' })).statusCode).toBe(200);
    expect(await row(w.id)).toMatchObject({ status: 'approved', payout_nonce: null });
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(docs.body).not.toContain('/internal/signer');
    await inject(t.app, admin.rejectWithdrawal, { params: { id: w.id }, body: { reason: 'test over' }, token: adminToken });
  });

  it('with PAYOUTS=manual there is no approval; a pasted hash must be a final transfer of the receive amount', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    await fundIncome(t.db, u.id, 20);
    const to = `0x${randomBytes(20).toString('hex')}`;
    const { id } = await createWithdrawal(t.db, u.id, { amount_usd: 20, network: 'BSC', wallet_address: to, token: 'USDT' });
    const complete = (tx_hash: string) => inject(t.app, admin.completeWithdrawal, { params: { id: String(id) }, body: { tx_hash }, token: adminToken });
    const wrong = await anvil.mint(token, to, receive(10));
    expect((await complete(wrong.txHash)).json()).toMatchObject({
      success: false,
      errors: { tx_hash: expect.stringMatching(/does not pay the receive amount/) },
    });
    const right = await anvil.mint(token, to, receive(20));
    expect((await complete(right.txHash)).json()).toMatchObject({ errors: { tx_hash: expect.stringMatching(/not final yet/) } });
    await anvil.mine(DEPTH);
    expect((await complete(right.txHash)).statusCode).toBe(200);
    expect(await row(String(id))).toMatchObject({ status: 'completed', tx_hash: right.txHash.toLowerCase() });
  });
});

describe('the signer takes its mnemonic from a file only', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'signer-keys-'));
  const base = { SIGNER_TOKEN: 'x'.repeat(40), CHAIN_BSC_RPC_URL: 'http://127.0.0.1:1', SIGNER_MNEMONIC_FILE: path.join(dir, 'm') };

  it('refuses a mnemonic in the environment or on the command line, and a file others can read', () => {
    expect(() => loadSignerConfig({ ...base, SIGNER_MNEMONIC: TEST_MNEMONIC })).toThrow(/environment is refused/);
    expect(() => loadSignerConfig(base, TEST_MNEMONIC.split(' '))).toThrow(SignerConfigError);
    const file = path.join(dir, 'open');
    writeFileSync(file, TEST_MNEMONIC);
    chmodSync(file, 0o644);
    expect(() => readMnemonic(file)).toThrow(/readable by others \(mode 644\)/);
    chmodSync(file, 0o600);
    expect(readMnemonic(file)).toBe(TEST_MNEMONIC);
    writeFileSync(file, 'not a mnemonic at all');
    expect(() => readMnemonic(file)).toThrow(/valid BIP-39/);
    try {
      readMnemonic(file);
    } catch (err) {
      expect(String(err)).not.toContain('mnemonic at all');
    }
  });

  it("derives the hot wallet at m/44'/60'/1'/0/0 and the deposit addresses at account 0", () => {
    const k = deriveKeys(TEST_MNEMONIC, 2);
    // The well-known test mnemonic's first dev account (account 0, index 0) is a deposit address.
    expect(k.own.has('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266')).toBe(true);
    expect(k.own.has(k.hot.address.toLowerCase())).toBe(true);
    expect(k.hot.address.toLowerCase()).not.toBe('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
    // The constant the demo configures the server with is the address the signer pays from.
    expect(k.hot.address).toBe(TEST_HOT_EVM_ADDRESS);
  });
});
