import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { admin } from '@app/core/contracts';
import fc from 'fast-check';
import pg from 'pg';
import { parseAbiItem } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectNetwork, type EvmNetwork } from '../../../../signer/src/chain';
import { loadSignerConfig, type SignerConfig } from '../../../../signer/src/config';
import { deriveKeys } from '../../../../signer/src/keys';
import { PayoutSigner, type CrashPoint } from '../../../../signer/src/payouts';
import { serverApi, type ServerApi } from '../../../../signer/src/server-api';
import { openStore, type Store } from '../../../../signer/src/store';
import { inject } from '../../test/api';
import { createTestApp, testDbKind, type TestApp } from '../../test/app';
import { startAnvil, type Anvil } from '../../test/chain/anvil';
import { TEST_EVM_XPUB, TEST_MNEMONIC } from '../../test/chain/test-keys';
import { createUser, fundIncome } from '../../test/factories';
import { propertySeed, sized } from '../../test/property-knobs';
import { newDataDir } from '../../test/template-db';
import { seededRandom } from '../../test/seeded-random';
import * as ledger from '../ledger/service';
import { configureCustody } from '../custody/runtime';
import { createWithdrawal } from '../withdrawals/service';
import { confirmPayouts } from './confirm';

const DEPTH = 3;
/** Seeded and bounded for CI (a few runs, well under 20 s per engine); 60 runs under TEST_LONG=1 (test/property-knobs.ts). */
const RUNS = sized(6, 60);
const SEED = propertySeed(48);
const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
/** The signer's clock jumps past SIGNER_STUCK_AFTER_S by this much ('later'): its unmined transactions are replaced. */
const STUCK_S = 60;

type Cmd =
  | { k: 'approve'; usd: number }
  | { k: 'reject'; pick: number }
  | { k: 'tick' }
  | { k: 'faults'; on: boolean }
  | { k: 'crash'; at: CrashPoint }
  | { k: 'kill'; afterCalls: number }
  | { k: 'mine'; n: number }
  | { k: 'reorg'; depth: number }
  | { k: 'automine'; on: boolean }
  | { k: 'later' }
  | { k: 'confirm' };

/**
 * What reaches the signer from outside, and how it fails: its node calls go through a proxy in
 * front of anvil, its server calls through a wrapper. With faults on, a call fails before it
 * arrives (a 503, a refused report) or after it was done (the answer lost: a broadcast the node
 * took, a report the server recorded). A kill makes every call after the next `afterCalls` fail,
 * wherever the pass is: the process is gone, only its database stays.
 */
interface Outside {
  faultRate: number;
  /** calls left before the process dies; null: alive */
  lifeLeft: number | null;
  random: () => number;
}

/** One call's fate: 'go', 'refuse' (never arrives) or 'lose' (arrives, its answer does not). */
function fate(o: Outside): 'go' | 'refuse' | 'lose' {
  if (o.lifeLeft !== null) {
    if (o.lifeLeft <= 0) return 'refuse';
    o.lifeLeft--;
  }
  if (o.faultRate > 0 && o.random() < o.faultRate) return o.random() < 0.5 ? 'refuse' : 'lose';
  return 'go';
}

function faultyProxy(target: string, o: Outside): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const f = fate(o);
        if (f === 'refuse') return res.writeHead(503).end('unavailable');
        const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) });
        const body = await answer.text();
        // The node did it; the caller never hears (a timeout, a reset connection).
        if (f === 'lose') return res.socket?.destroy();
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(body);
      })().catch(() => res.socket?.destroy());
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

function faultyApi(real: ServerApi, o: Outside): ServerApi {
  const wrap =
    <A extends unknown[], R>(fn: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      const f = fate(o);
      if (f === 'refuse') throw new Error('server unreachable');
      const out = await fn(...a);
      if (f === 'lose') throw new Error('server answer lost');
      return out;
    };
  return {
    payouts: wrap(real.payouts),
    report: wrap(real.report),
    heartbeat: wrap(real.heartbeat),
    sweeps: wrap(real.sweeps),
    sweepReport: wrap(real.sweepReport),
  };
}

/**
 * Issue 48's "never twice" as a property: random approvals, admin rejections, signer crashes and
 * kills (a fresh signer on the same database afterwards: nothing in memory survives), faults on
 * the signer's node and server calls, paused mining with stuck transactions replaced, and reorgs
 * under the confirmation depth. Once everything settles on a clean node: every approved
 * withdrawal is completed, and the completed withdrawals are exactly the hot address's token
 * transfers on the chain, each once, for its amount and to its address; a rejected one is never
 * paid; no ledger balance is below zero. The chain, the server and the signer's database go on
 * from run to run.
 */
describe(`property: payouts on chain = completed withdrawals, each once (${testDbKind})`, () => {
  let anvil: Anvil;
  let t: TestApp;
  let token: `0x${string}`;
  let adminToken: string;
  let proxy: Server;
  let store: Store;
  let config: SignerConfig;
  let pgAdmin: pg.Client | undefined;
  let signerDb: string | undefined;
  const keys = deriveKeys(TEST_MNEMONIC, 5);
  const outside: Outside = { faultRate: 0, lifeLeft: null, random: Math.random };
  let clockShift = 0;

  beforeAll(async () => {
    anvil = await startAnvil();
    token = await anvil.deployToken(18);
    const signerToken = randomBytes(32).toString('hex');
    t = await createTestApp({
      PAYMENTS_GATEWAY: 'chain',
      CUSTODY_EVM_XPUB: TEST_EVM_XPUB,
      CHAIN_BSC_RPC_URL: anvil.url,
      CHAIN_BSC_USDT: token,
      CHAIN_BSC_CONFIRMATIONS: String(DEPTH),
      PAYOUTS: 'signer',
      SIGNER_TOKEN_HASH: createHash('sha256').update(signerToken).digest('hex'),
      CUSTODY_HOT_EVM_ADDRESS: keys.hot.address,
      RATE_LIMIT_MONEY_PER_MIN: '100000',
    });
    configureCustody(t.ctx, { tuning: { sleep: async () => undefined, startAt: () => 0n } });
    const serverUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    adminToken = (await createUser(t.db, t.ctx.secret, { isAdmin: true })).token;
    await anvil.rpc('anvil_setBalance', [keys.hot.address, '0x56BC75E2D63100000']);
    await anvil.mint(token, keys.hot.address, 10n ** 18n * 1_000_000n);
    // Out of the reorgs' reach: a reorg that took out the hot wallet's funding would rightly hold every payout.
    await anvil.mine(DEPTH);
    const p = await faultyProxy(anvil.url, outside);
    proxy = p.server;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'signer-property-'));
    const mnemonicFile = path.join(dir, 'mnemonic');
    writeFileSync(mnemonicFile, `${TEST_MNEMONIC}\n`, { mode: 0o600 });
    let databaseUrl: string | undefined;
    if (testDbKind === 'postgres') {
      pgAdmin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await pgAdmin.connect();
      const name = `signer_property_${randomBytes(4).toString('hex')}`;
      await pgAdmin.query(`create database ${name}`);
      signerDb = name;
      const u = new URL(process.env.TEST_DATABASE_URL!);
      u.pathname = `/${name}`;
      databaseUrl = u.toString();
    }
    config = loadSignerConfig({
      SIGNER_MNEMONIC_FILE: mnemonicFile,
      SIGNER_SERVER_URL: serverUrl,
      SIGNER_TOKEN: signerToken,
      // A copy of the run's migrated server PGlite (none of its tables is one of the signer's): the
      // signer's migrations add theirs, where a new data directory would run initdb (20 s on a busy CI).
      SIGNER_DATA_DIR: path.join(newDataDir('signer-property-db-'), 'pglite'),
      ...(databaseUrl ? { SIGNER_DATABASE_URL: databaseUrl } : {}),
      CHAIN_BSC_RPC_URL: p.url,
      CHAIN_BSC_USDT: token,
      CHAIN_BSC_CONFIRMATIONS: String(DEPTH),
      SIGNER_OWN_SCAN: '5',
      SIGNER_MAX_PAYOUT_USD: '1000',
      SIGNER_DAILY_LIMIT_USD: '1000000000',
      SIGNER_STUCK_AFTER_S: String(STUCK_S),
    });
    store = await openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    if (signerDb) await pgAdmin?.query(`drop database if exists ${signerDb}`);
    await pgAdmin?.end();
    proxy?.closeAllConnections();
    proxy?.close();
    await t?.close();
    await anvil?.close();
  });

  /** A new signer process on the same database: its clients, its memory (held reasons) all new. */
  async function freshSigner(): Promise<PayoutSigner> {
    const saved = { ...outside };
    Object.assign(outside, { faultRate: 0, lifeLeft: null });
    const net: EvmNetwork = await connectNetwork(config.networks[0]!, keys.hot);
    Object.assign(outside, { faultRate: saved.faultRate });
    const api = faultyApi(serverApi(config.serverUrl, config.token), outside);
    return new PayoutSigner(config, store, api, new Map([['bsc', net]]), keys.own, quiet, () => new Date(Date.now() + clockShift * 1000));
  }

  const hotTransfers = async () =>
    (await anvil.publicClient.getLogs({ address: token, event: TRANSFER, args: { from: keys.hot.address }, fromBlock: 0n })).map((l) => ({
      to: l.args.to!.toLowerCase(),
      value: l.args.value!,
      tx: l.transactionHash.toLowerCase(),
    }));

  it('holds over random approvals, rejections, kills, RPC and server faults, stuck transactions and reorgs under the depth', async () => {
    const cmd: fc.Arbitrary<Cmd> = fc.oneof(
      { weight: 4, arbitrary: fc.record({ k: fc.constant('approve' as const), usd: fc.integer({ min: 10, max: 90 }) }) },
      { weight: 3, arbitrary: fc.record({ k: fc.constant('reject' as const), pick: fc.nat(20) }) },
      { weight: 5, arbitrary: fc.record({ k: fc.constant('tick' as const) }) },
      { weight: 2, arbitrary: fc.record({ k: fc.constant('faults' as const), on: fc.boolean() }) },
      { weight: 1, arbitrary: fc.record({ k: fc.constant('crash' as const), at: fc.constantFrom<CrashPoint>('after-sign', 'after-broadcast') }) },
      { weight: 2, arbitrary: fc.record({ k: fc.constant('kill' as const), afterCalls: fc.integer({ min: 0, max: 14 }) }) },
      { weight: 2, arbitrary: fc.record({ k: fc.constant('mine' as const), n: fc.integer({ min: 1, max: 2 }) }) },
      { weight: 2, arbitrary: fc.record({ k: fc.constant('reorg' as const), depth: fc.integer({ min: 1, max: DEPTH - 1 }) }) },
      { weight: 1, arbitrary: fc.record({ k: fc.constant('automine' as const), on: fc.boolean() }) },
      { weight: 1, arbitrary: fc.record({ k: fc.constant('later' as const) }) },
      { weight: 2, arbitrary: fc.record({ k: fc.constant('confirm' as const) }) },
    );
    let run = 0;
    // What the runs did, printed at the end: a property that never replaced or re-sent anything proves little.
    const tally = { runs: 0, commands: 0, kills: 0, reorgs: 0, signed: 0, rebroadcast: 0, replaced: 0, dead: 0, completed: 0, rejected: 0 };
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(fc.array(cmd, { minLength: 6, maxLength: 18 }), fc.integer(), async (cmds, seed) => {
        run++;
        tally.runs++;
        tally.commands += cmds.length;
        Object.assign(outside, { faultRate: 0, lifeLeft: null, random: seededRandom(seed) });
        clockShift = 0;
        const mine: { id: bigint; to: string }[] = [];
        const rejected = new Set<bigint>();
        let signer = await freshSigner();
        const tick = async () => {
          const done = await signer.tick().catch(() => null);
          if (done) for (const k of ['signed', 'rebroadcast', 'replaced', 'dead'] as const) tally[k] += done[k];
        };
        try {
          for (const x of cmds) {
            if (x.k === 'approve') {
              const u = await createUser(t.db, t.ctx.secret);
              await fundIncome(t.db, u.id, x.usd);
              const to = `0x${randomBytes(20).toString('hex')}`;
              const { id } = await createWithdrawal(t.db, u.id, { amount_usd: x.usd, network: 'BSC', wallet_address: to, token: 'USDT' });
              expect((await inject(t.app, admin.approveWithdrawal, { params: { id: String(id) }, token: adminToken })).statusCode).toBe(200);
              mine.push({ id, to });
            } else if (x.k === 'reject') {
              const w = mine[x.pick % Math.max(1, mine.length)];
              if (!w) continue;
              const res = await inject(t.app, admin.rejectWithdrawal, { params: { id: String(w.id) }, body: { reason: 'property' }, token: adminToken });
              // Refused once it is sent: the money may be on its way.
              if (res.statusCode === 200) rejected.add(w.id);
            } else if (x.k === 'tick') await tick();
            else if (x.k === 'faults') outside.faultRate = x.on ? 0.25 : 0;
            else if (x.k === 'crash') {
              tally.kills++;
              signer.crashAt = x.at;
              await tick();
              signer = await freshSigner();
            } else if (x.k === 'kill') {
              tally.kills++;
              outside.lifeLeft = x.afterCalls;
              await tick();
              outside.lifeLeft = null;
              signer = await freshSigner();
            } else if (x.k === 'mine') await anvil.mine(x.n);
            else if (x.k === 'reorg') {
              // anvil drops the transactions of the blocks it replaces (they do not go back to its pool).
              const depth = Math.min(x.depth, Number(await anvil.head()) - 1);
              if (depth > 0) {
                await anvil.reorg(depth);
                tally.reorgs++;
              }
            } else if (x.k === 'automine') await anvil.rpc('evm_setAutomine', [x.on]);
            else if (x.k === 'later') clockShift += STUCK_S + 1;
            else await confirmPayouts(t.ctx);
          }
        } finally {
          await anvil.rpc('evm_setAutomine', [true]);
        }

        // Settles on a clean node and a live server: a fresh signer runs until nothing is left to do.
        Object.assign(outside, { faultRate: 0, lifeLeft: null });
        signer = await freshSigner();
        const open = async () =>
          (await t.db.selectFrom('withdrawals').select('id').where('status', 'in', ['approved', 'sent']).execute()).filter((r) =>
            mine.some((w) => w.id === r.id),
          ).length;
        for (let i = 0; i < 12 && (await open()) > 0; i++) {
          await signer.tick();
          await anvil.mine(DEPTH);
          await confirmPayouts(t.ctx);
        }

        const rows = await t.db.selectFrom('withdrawals').select(['id', 'status', 'receive_amount', 'tx_hash', 'wallet_address']).execute();
        const ours = rows.filter((r) => mine.some((w) => w.id === r.id));
        const label = `run ${run}: ${JSON.stringify(cmds)}`;
        tally.completed += ours.filter((r) => r.status === 'completed').length;
        tally.rejected += ours.filter((r) => r.status === 'rejected').length;
        for (const r of ours) expect(r.status, `${label}: withdrawal ${r.id}`).toBe(rejected.has(r.id) ? 'rejected' : 'completed');
        // The chain's truth, over every run so far: the hot address's transfers are the completed withdrawals, each once.
        const transfers = await hotTransfers();
        const completed = rows.filter((r) => r.status === 'completed');
        expect(transfers.map((l) => `${l.to} ${l.value} ${l.tx}`).sort(), label).toEqual(
          completed.map((r) => `${r.wallet_address.toLowerCase()} ${BigInt(r.receive_amount) * 10n ** 12n} ${r.tx_hash}`).sort(),
        );
        for (const w of mine.filter((x) => rejected.has(x.id)))
          expect(
            transfers.filter((l) => l.to === w.to.toLowerCase()),
            label,
          ).toEqual([]);
        const v = await ledger.verify(t.db);
        expect(v.negativeUserAccounts).toEqual([]);
        expect(v.ok, JSON.stringify(v)).toBe(true);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    console.log(`payouts property (${testDbKind}, seed ${SEED}): ${JSON.stringify(tally)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(tally.completed).toBeGreaterThan(0);
  }, 900_000);
});
