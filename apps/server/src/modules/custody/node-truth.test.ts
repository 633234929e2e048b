import { sql } from 'kysely';
import { admin as adminContracts, health as healthContracts, type TCustodyView } from '@app/core/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHungNode, type HungNode } from '../../test/chain/hung-node';
import { deployMulticall3 } from '../../test/chain/multicall3';
import { usdtRaw, useChainTest } from '../../test/chain/test-chain';
import { inject } from '../../test/api';
import { createUser } from '../../test/factories';
import { readBalances } from './balances';
import { evmClient } from './rpc/client';
import { configureCustody } from './runtime';

const METRICS_TOKEN = 'metrics-token-for-node-truth-tests-0123';
const ADDRESSES = 10_000;

/**
 * Issue 49, found by an operator's walk: with the RPC endpoint unreachable health said 200 with
 * `lag: 0` and a frozen head, and GET /api/admin/custody did not answer with the node hung nor
 * within 30 s at 10,020 addresses with a healthy one. Health now says `stale` with the reason once
 * the node is silent for CHAIN_STALE_AFTER_S, and the view answers from what the balances job stored.
 */
describe('custody tells the truth about its nodes and answers at scale', () => {
  const c = useChainTest({ METRICS_TOKEN, CHAIN_STALE_AFTER_S: '1' });
  let hung: HungNode;
  beforeAll(async () => {
    hung = await startHungNode();
  });
  afterAll(async () => {
    await hung?.close();
  });
  const health = () => inject(c.t.app, healthContracts.check, { token: METRICS_TOKEN });
  type ChainLine = { network: string; state: string; head_age_s: number | null };
  /** The chain lines of a health answer, 200 or 503 (the contract types the 200's data, where they are optional). */
  const chainOf = (res: Awaited<ReturnType<typeof health>>) => res.data().chain as ChainLine[];
  const bscOf = <T extends { network: string } = ChainLine>(list: T[]): T => list.find((n) => n.network === 'bsc')!;
  const bscView = (list: TCustodyView['networks']) => bscOf(list);
  const healthy = () => configureCustody(c.t.ctx, { clients: { bsc: evmClient(c.anvil.url) } });
  // A short timeout keeps the test short; the default (CHAIN_RPC_TIMEOUT_MS) is 10 s.
  const hang = () => configureCustody(c.t.ctx, { clients: { bsc: evmClient(hung.url, { timeoutMs: 200 }) } });

  it('says stale with the reason once the node is silent for CHAIN_STALE_AFTER_S, and ok again when it answers', async () => {
    await c.tick();
    let res = await health();
    expect(res.statusCode, res.body).toBe(200);
    expect(bscOf(chainOf(res))).toMatchObject({ state: 'ok', reason: null, lag: 0 });

    hang();
    await expect(c.tick()).rejects.toThrow(/did not answer within 200 ms/);
    // Silent for more than CHAIN_STALE_AFTER_S (1 s) since its last answer.
    await new Promise((r) => setTimeout(r, 1_300));
    res = await health();
    expect(res.statusCode, res.body).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    const stale = bscOf(chainOf(res));
    expect(res.data().status).toBe('degraded');
    expect(stale).toMatchObject({ state: 'stale', reason: expect.stringMatching(/no answer from the node for \d+ s: .*did not answer/) });
    expect(stale.head_age_s).toBeGreaterThanOrEqual(1);
    // /metrics is Prometheus text outside /api: no contract describes it.
    const metrics = (await c.t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
    expect(metrics).toMatch(/chain_state\{network="bsc",state="stale"\} 1/);
    expect(metrics).toMatch(/chain_head_age_seconds\{network="bsc"\} \d+/);
    // The anonymous answer: the status only, the same 503.
    const anonymous = await inject(c.t.app, healthContracts.check);
    expect([anonymous.statusCode, anonymous.data()]).toEqual([503, { status: 'degraded' }]);
    // Polygon's node answers (nothing asked it yet: unknown, not stale).
    expect(chainOf(res).find((n) => n.network === 'polygon')!.state).toBe('unknown');

    // The admin view says the same, and answers although the node hangs.
    const admin = await createUser(c.t.db, c.t.ctx.secret, { isAdmin: true });
    const view = await inject(c.t.app, adminContracts.custody, { token: admin.token });
    expect(view.statusCode, view.body).toBe(200);
    expect(bscOf(view.data().networks)).toMatchObject({ state: 'stale', reason: expect.stringMatching(/no answer/) });

    healthy();
    await c.tick();
    res = await health();
    expect(res.statusCode, res.body).toBe(200);
    expect(bscOf(chainOf(res))).toMatchObject({ state: 'ok', reason: null });
  });

  it(`answers the custody view from stored balances within a second at ${ADDRESSES} addresses, also with the node hung`, async () => {
    healthy();
    const admin = await createUser(c.t.db, c.t.ctx.secret, { isAdmin: true });
    const owner = await c.user();
    // 10,000 more deposit addresses, written by SQL (one account; distinct key texts keep the indexes unique).
    await sql`
      insert into custody_addresses (family, address, user_id, idx, xpub)
      select 'evm', '0x' || lpad(to_hex(i), 40, '0'), ${owner.id}, 100000 + i, 'scale-' || i
      from generate_series(1, ${ADDRESSES}) as i`.execute(c.t.db);
    // As on BSC and Polygon: the job reads 500 balances an eth_call (without it, 10,000 eth_calls took anvil 78 s).
    await deployMulticall3(c.anvil);
    const some = [1, 5_000, ADDRESSES].map((i) => `0x${i.toString(16).padStart(40, '0')}`);
    for (const to of some) await c.anvil.mint(c.bsc, to, usdtRaw('7', 18));
    await c.anvil.mine(6);
    for (let i = 0; i < 3; i++) await c.tick();

    const job = performance.now();
    const run = await readBalances(c.t.ctx, 'bsc');
    const jobMs = performance.now() - job;
    expect(run.addresses).toBeGreaterThanOrEqual(ADDRESSES);

    const get = async (query: { page?: string; per_page?: string } = {}) => {
      const started = performance.now();
      const res = await inject(c.t.app, adminContracts.custody, { token: admin.token, query });
      const ms = performance.now() - started;
      expect(res.statusCode, res.body).toBe(200);
      return { ms, bsc: bscView(res.data().networks) };
    };
    const first = await get({ per_page: '2' });
    expect(first.bsc.reconciliation).toMatchObject({ addresses: run.addresses, holding: 3, on_chain: 21, expected: 21, difference: 0, flagged: false });
    expect(first.bsc.reconciliation.age_s).toBeGreaterThanOrEqual(0);
    expect(first.bsc.sweep).toHaveLength(2);
    expect(first.bsc.sweep_pagination).toEqual({ total: 3, page: 1, perPage: 2 });
    expect(first.bsc.sweep[0]).toMatchObject({ balance: 7, age_s: expect.any(Number), read_at: expect.any(String) });
    const second = await get({ per_page: '2', page: '2' });
    expect(second.bsc.sweep).toHaveLength(1);

    hang();
    const hungView = await get();
    expect(hungView.bsc.reconciliation).toMatchObject({ on_chain: 21, holding: 3 });
    // A run against the hung node stores its error and keeps the last whole read.
    await expect(readBalances(c.t.ctx, 'bsc')).rejects.toThrow(/did not answer/);
    const afterFailure = await get();
    expect(afterFailure.bsc.reconciliation).toMatchObject({ on_chain: 21, flagged: true, error: expect.stringMatching(/did not answer/) });
    healthy();

    console.log(
      `custody view at ${run.addresses} addresses: balances job ${jobMs.toFixed(0)} ms (Multicall3, 500 a call); ` +
        `GET /api/admin/custody ${first.ms.toFixed(0)} ms, page 2 ${second.ms.toFixed(0)} ms, with the node hung ${hungView.ms.toFixed(0)} ms`,
    );
    // The figure to watch is printed above (design: within 1 s); the bound here only catches a request that reads a node again.
    for (const { ms } of [first, second, hungView, afterFailure]) expect(ms).toBeLessThan(5_000);
  });
});
