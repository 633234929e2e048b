import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { admin as adminContracts, health as healthContracts } from '@app/core/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../config';
import { inject } from '../../test/api';
import { createTestApp, type TestApp } from '../../test/app';
import { startAnvil, type Anvil } from '../../test/chain/anvil';
import { TEST_EVM_XPUB } from '../../test/chain/test-keys';
import { createUser } from '../../test/factories';
import * as ledger from '../ledger/service';
import { ensureAddress } from './addresses';
import { readBalances } from './balances';
import { TRANSFER_TOPIC } from './rpc/client';
import { configureCustody } from './runtime';
import { watchOnce } from './watcher';

/**
 * Trust no single node (docs/custody.md): an attacker's proxy in front of the one RPC endpoint
 * added one made-up Transfer log of the configured token (a random transaction hash, a real block
 * hash) and had 72 USDT credited that never arrived. A credit now needs the transaction's receipt
 * with the very log, from the quorum of the network's endpoints, and no endpoint that answers
 * may contradict it.
 */
const METRICS_TOKEN = 'metrics-token-for-quorum-tests-0123';
const CONF = 3;
/** Short, so the test of a silent endpoint waits little; each health check follows a tick, so a busy machine does not reach it. */
const STALE_AFTER_S = 2;
const E18 = 10n ** 18n;

interface FakeLog {
  token: string;
  blockNumber: bigint;
  blockHash: string;
  txHash: string;
  logIndex: number;
  to: string;
  raw: bigint;
}

interface Proxy {
  url: string;
  /** made-up logs added to every eth_getLogs answer that covers them */
  fakes: FakeLog[];
  /** also answer a made-up receipt (status 1, the made-up log) for their transaction hashes */
  forgeReceipts: boolean;
  /** answer 503 to everything */
  down: boolean;
  close(): Promise<void>;
}

const hex = (n: bigint) => `0x${n.toString(16)}`;
const topicOf = (address: string) => `0x${address.slice(2).toLowerCase().padStart(64, '0')}`;
const rawLog = (f: FakeLog) => ({
  address: f.token,
  topics: [TRANSFER_TOPIC, topicOf(`0x${'0'.repeat(40)}`), topicOf(f.to)],
  data: `0x${f.raw.toString(16).padStart(64, '0')}`,
  blockNumber: hex(f.blockNumber),
  blockHash: f.blockHash,
  transactionHash: f.txHash,
  transactionIndex: '0x5',
  logIndex: hex(BigInt(f.logIndex)),
  removed: false,
});

type Rpc = { id: number; method: string; params: unknown[] };
type Answer = { id: number; result?: unknown };

/** A small HTTP JSON-RPC proxy in front of anvil: honest, or adding made-up logs (and receipts), or down. */
async function startProxy(target: string): Promise<Proxy> {
  const p = { fakes: [], forgeReceipts: false, down: false } as unknown as Proxy;
  const server = createServer((req, res) => {
    void (async () => {
      let text = '';
      for await (const chunk of req) text += String(chunk);
      if (p.down) {
        res.writeHead(503, { 'content-type': 'text/plain' });
        return res.end('down for maintenance');
      }
      const upstream = (await (await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text })).json()) as
        Answer | Answer[];
      const body = JSON.parse(text) as Rpc | Rpc[];
      const answers = Array.isArray(upstream) ? upstream : [upstream];
      for (const r of Array.isArray(body) ? body : [body]) {
        const a = answers.find((x) => x.id === r.id);
        if (!a) continue;
        if (r.method === 'eth_getLogs' && Array.isArray(a.result)) {
          const f = r.params[0] as { fromBlock: string; toBlock: string; address?: string; topics?: (string | string[] | null)[] };
          const recipients = f.topics?.[2];
          for (const fake of p.fakes)
            if (
              BigInt(f.fromBlock) <= fake.blockNumber &&
              BigInt(f.toBlock) >= fake.blockNumber &&
              f.address?.toLowerCase() === fake.token.toLowerCase() &&
              (!recipients || (Array.isArray(recipients) ? recipients : [recipients]).includes(topicOf(fake.to)))
            )
              a.result = [...(a.result as unknown[]), rawLog(fake)];
        }
        if (r.method === 'eth_getTransactionReceipt' && p.forgeReceipts) {
          const fake = p.fakes.find((f) => f.txHash === r.params[0]);
          if (fake)
            a.result = {
              status: '0x1',
              blockHash: fake.blockHash,
              blockNumber: hex(fake.blockNumber),
              transactionHash: fake.txHash,
              logs: [rawLog(fake)],
            };
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(upstream));
    })().catch((err: unknown) => {
      res.writeHead(502);
      res.end(String(err));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  p.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  p.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return p;
}

interface Scenario {
  t: TestApp;
  token: `0x${string}`;
  liar: Proxy;
  honest: Proxy;
  user(): Promise<{ id: bigint; token: string; evm: string }>;
  /** a real deposit of `usdt` and, in its block, a made-up log of `fakeUsdt` to the same address (a random transaction hash) */
  depositWithFake(to: string, usdt: bigint, fakeUsdt: bigint): Promise<{ real: string; fake: string }>;
  tick(): ReturnType<typeof watchOnce>;
  balance(id: bigint): Promise<bigint>;
  observation(txHash: string): Promise<{ status: string; note: string | null } | undefined>;
}

let anvil: Anvil;
beforeAll(async () => {
  anvil = await startAnvil();
});
afterAll(async () => {
  await anvil?.close();
});

/** An app with its own token (so several apps share one anvil), BSC on the endpoints `env` gives (with `urls` for the proxies). */
function useScenario(env: (s: { liar: string; honest: string }) => Record<string, string>): Scenario {
  const s = {} as Scenario;
  beforeAll(async () => {
    s.token = await anvil.deployToken(18);
    s.liar = await startProxy(anvil.url);
    s.honest = await startProxy(anvil.url);
    s.t = await createTestApp({
      PAYMENTS_GATEWAY: 'chain',
      CUSTODY_EVM_XPUB: TEST_EVM_XPUB,
      CHAIN_BSC_USDT: s.token,
      CHAIN_BSC_CONFIRMATIONS: String(CONF),
      CHAIN_STALE_AFTER_S: String(STALE_AFTER_S),
      METRICS_TOKEN,
      RATE_LIMIT_AUTH_PER_MIN: '1000',
      ...env({ liar: s.liar.url, honest: s.honest.url }),
    });
    configureCustody(s.t.ctx, { tuning: { sleep: async () => undefined, startAt: () => 0n, attempts: 2 } });
  });
  afterAll(async () => {
    try {
      await s.t?.close();
    } finally {
      await s.liar?.close();
      await s.honest?.close();
    }
  });
  s.user = async () => {
    const u = await createUser(s.t.db, s.t.ctx.secret);
    return { id: u.id, token: u.token, evm: (await ensureAddress(s.t.ctx, u.id, 'evm')).hex };
  };
  s.depositWithFake = async (to, usdt, fakeUsdt) => {
    const real = await anvil.mint(s.token, to, usdt * E18);
    const fake = `0x${randomBytes(32).toString('hex')}`;
    s.liar.fakes.push({ token: s.token, blockNumber: real.blockNumber, blockHash: real.blockHash, txHash: fake, logIndex: 5, to, raw: fakeUsdt * E18 });
    return { real: real.txHash, fake };
  };
  s.tick = () => watchOnce(s.t.ctx, 'bsc');
  s.balance = async (id) => (await ledger.getBalances(s.t.db, id)).deposit;
  s.observation = (txHash) => s.t.db.selectFrom('chain_observations').select(['status', 'note']).where('tx_hash', '=', txHash).executeTakeFirst();
  return s;
}

describe('the endpoints’ settings', () => {
  const base = { SESSION_SECRET: 'x'.repeat(64), PAYMENTS_GATEWAY: 'chain', CUSTODY_EVM_XPUB: TEST_EVM_XPUB };
  it('merges the single URL (the primary) with the list, once each; the quorum is all of them unless set, at most all', () => {
    const bsc = (env: Record<string, string>) => loadConfig({ ...base, ...env }).payments.custody.networks.find((n) => n.network === 'bsc')!;
    expect(bsc({ CHAIN_BSC_RPC_URL: 'http://a.test/' })).toMatchObject({ url: 'http://a.test', urls: ['http://a.test'], quorum: 1 });
    expect(bsc({ CHAIN_BSC_RPC_URL: 'http://a.test', CHAIN_BSC_RPC_URLS: 'http://b.test, http://a.test,http://c.test' })).toMatchObject({
      url: 'http://a.test',
      urls: ['http://a.test', 'http://b.test', 'http://c.test'],
      quorum: 3,
    });
    expect(bsc({ CHAIN_BSC_RPC_URLS: 'http://b.test,http://c.test', CHAIN_RPC_QUORUM: '1' })).toMatchObject({ url: 'http://b.test', quorum: 1 });
    expect(bsc({ CHAIN_BSC_RPC_URLS: 'http://b.test', CHAIN_RPC_QUORUM: '3' })).toMatchObject({ quorum: 1 });
    expect(() => loadConfig({ ...base, CHAIN_BSC_RPC_URLS: 'http://b.test,not a url' })).toThrow(
      /^Invalid configuration: CHAIN_BSC_RPC_URLS must be a comma-separated list of URLs$/,
    );
    expect(() => loadConfig({ ...base, CHAIN_BSC_RPC_URL: 'http://a.test', CHAIN_RPC_QUORUM: '0' })).toThrow(
      /^Invalid configuration: CHAIN_RPC_QUORUM must be at least 1$/,
    );
  });
});

describe('one endpoint: a credit checks the receipt', () => {
  const s = useScenario(({ liar }) => ({ CHAIN_BSC_RPC_URL: liar }));

  it('a made-up log (random transaction hash, real block hash) is held, not credited, while a real deposit in the same block is', async () => {
    const warn = vi.spyOn(s.t.ctx.log, 'warn');
    await s.tick();
    const u = await s.user();
    const d = await s.depositWithFake(u.evm, 25n, 72n);
    await anvil.mine(CONF);
    const r = await s.tick();
    expect(r).toMatchObject({ credited: 1, disputed: 1 });
    expect(await s.balance(u.id)).toBe(25_000_000n);
    expect(await s.observation(d.real)).toMatchObject({ status: 'credited' });
    const fake = await s.observation(d.fake);
    expect(fake?.status).toBe('held');
    expect(fake?.note).toMatch(
      /^endpoints disagree: transaction 0x[0-9a-f]{64} log 5 in block \d+: endpoint 1 \(127\.0\.0\.1:\d+\): no receipt for the transaction/,
    );
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ txHash: d.fake, reason: fake?.note }),
      'custody transfer held: the endpoints disagree, waits for an admin',
    );
    // Held for good: later ticks neither credit it nor ask about it again.
    await anvil.mine(1);
    expect(await s.tick()).toMatchObject({ credited: 0, disputed: 0 });
    expect(await s.balance(u.id)).toBe(25_000_000n);
    expect((await ledger.verify(s.t.db)).ok).toBe(true);
  });
});

describe('two endpoints, quorum 2 (the default: all of them)', () => {
  const s = useScenario(({ liar, honest }) => ({ CHAIN_BSC_RPC_URLS: `${liar},${honest}` }));
  const health = () => inject(s.t.app, healthContracts.check, { token: METRICS_TOKEN });

  it('a liar that also forges the receipt is outvoted: held, and health and the admin view show the disagreement until an admin dismisses it', async () => {
    s.liar.forgeReceipts = true;
    const admin = await createUser(s.t.db, s.t.ctx.secret, { isAdmin: true });
    await s.tick();
    const u = await s.user();
    const d = await s.depositWithFake(u.evm, 10n, 72n);
    await anvil.mine(CONF);
    expect(await s.tick()).toMatchObject({ credited: 1, disputed: 1 });
    expect(await s.balance(u.id)).toBe(10_000_000n);
    const fake = await s.observation(d.fake);
    expect(fake?.status).toBe('held');
    expect(fake?.note).toMatch(/endpoint 2 \(127\.0\.0\.1:\d+\): no receipt for the transaction \(1 of 2 confirmed it\)$/);

    // Each health check right after a tick: on a busy machine the steps between could outlast the
    // stale limit, and a silent endpoint would be said instead of the disagreement.
    await s.tick();
    const h = await health();
    expect(h.statusCode).toBe(503);
    const chain = (h.json() as { data: { status: string; chain: { network: string; state: string; reason: string }[] } }).data;
    expect(chain.status).toBe('degraded');
    expect(chain.chain[0]).toMatchObject({ network: 'bsc', state: 'disputed' });
    expect(chain.chain[0]!.reason).toContain('1 transfer(s) held because the endpoints disagree');
    expect(chain.chain[0]!.reason).toContain(d.fake);
    // /metrics is Prometheus text outside /api: no contract describes it.
    const metrics = (await s.t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
    expect(metrics).toMatch(/chain_state\{network="bsc",state="disputed"\} 1/);
    expect(metrics).toMatch(/chain_state\{network="bsc",state="ok"\} 0/);

    await readBalances(s.t.ctx, 'bsc');
    const view = await inject(s.t.app, adminContracts.custody, { token: admin.token });
    expect(view.statusCode, view.body).toBe(200);
    const v = view.data();
    expect(v.networks[0]).toMatchObject({ network: 'bsc', state: 'disputed', deposits: { held: 1, credited: 1 } });
    const waiting = v.not_credited.find((w) => w.tx_hash === d.fake)!;
    expect(waiting).toMatchObject({ status: 'held', token_amount: '72', actions: ['dismiss'] });
    expect(waiting.note).toContain('endpoints disagree');
    // The made-up transfer is not counted as money that should be on the address.
    expect(v.networks[0]!.reconciliation).toMatchObject({ on_chain: 10, expected: 10, difference: 0, flagged: false });

    const dismissed = await inject(s.t.app, adminContracts.custodyDismiss, { token: admin.token, params: { id: waiting.id } });
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    expect((await s.observation(d.fake))?.note).toMatch(/^dismissed by an admin \(endpoints disagree: /);
    await s.tick();
    expect((await health()).statusCode).toBe(200);
  });

  it('while one endpoint is down a final deposit waits (stale after CHAIN_STALE_AFTER_S), and is credited once both confirm it', async () => {
    await s.tick();
    const u = await s.user();
    const d = await anvil.mint(s.token, u.evm, 5n * E18);
    await anvil.mine(CONF);
    s.honest.down = true;
    expect(await s.tick()).toMatchObject({ credited: 0, unconfirmed: 1 });
    expect(await s.observation(d.txHash)).toMatchObject({ status: 'seen' });
    await new Promise((r) => setTimeout(r, STALE_AFTER_S * 1_000 + 1_100));
    await s.tick();
    const h = await health();
    expect(h.statusCode).toBe(503);
    const net = (h.json() as { data: { chain: { state: string; reason: string }[] } }).data.chain[0]!;
    expect(net.state).toBe('stale');
    expect(net.reason).toMatch(
      /quorum \(2 of 2\) has not confirmed the final transfers for \d+ s: 1 final transfer\(s\) wait: 1 of the 2 endpoints needed confirmed/,
    );
    expect(net.reason).toContain('endpoint 2 (127.0.0.1:');
    expect(net.reason).not.toContain(s.honest.url);
    s.honest.down = false;
    expect(await s.tick()).toMatchObject({ credited: 1, unconfirmed: 0 });
    expect(await s.balance(u.id)).toBe(5_000_000n);
    await s.tick();
    expect((await health()).statusCode).toBe(200);
  });
});

describe('two endpoints, quorum 1 (documented: any one suffices, but none may contradict)', () => {
  const s = useScenario(({ liar, honest }) => ({ CHAIN_BSC_RPC_URLS: `${liar},${honest}`, CHAIN_RPC_QUORUM: '1' }));

  it('a forged transfer is still held when the other endpoint answers and denies it', async () => {
    s.liar.forgeReceipts = true;
    await s.tick();
    const u = await s.user();
    const d = await s.depositWithFake(u.evm, 8n, 72n);
    await anvil.mine(CONF);
    expect(await s.tick()).toMatchObject({ credited: 1, disputed: 1 });
    expect(await s.balance(u.id)).toBe(8_000_000n);
    expect(await s.observation(d.fake)).toMatchObject({ status: 'held' });
  });

  it('with the other endpoint down, the primary’s word alone is taken: a real deposit is credited, and so is a forged one (why the default is all)', async () => {
    s.liar.forgeReceipts = true;
    await s.tick();
    const u = await s.user();
    const d = await s.depositWithFake(u.evm, 4n, 72n);
    await anvil.mine(CONF);
    s.honest.down = true;
    try {
      expect(await s.tick()).toMatchObject({ credited: 2, disputed: 0 });
    } finally {
      s.honest.down = false;
    }
    expect(await s.balance(u.id)).toBe(76_000_000n);
    expect(await s.observation(d.fake)).toMatchObject({ status: 'credited' });
  });
});
