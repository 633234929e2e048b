import { describe, expect, it } from 'vitest';
import { faultyTransport } from '../../test/chain/faulty-rpc';
import { propertySeed, replayWith } from '../../test/property-knobs';
import { seededRandom } from '../../test/seeded-random';
import * as ledger from '../ledger/service';
import { chainKey } from '../payments/service';
import { evmClient } from './rpc/client';
import { configureCustody } from './runtime';
import { usdtRaw, useChainTest } from '../../test/chain/test-chain';
import { watchOnce } from './watcher';

/**
 * The watcher behind a node that misbehaves as public RPC providers do (test/chain/faulty-rpc.ts):
 * 429, 5xx and timeouts, ranges refused as too large, repeated, overlapping and shuffled logs,
 * shuffled batch answers, and a replica behind the cursor. What it credits must be exactly what a
 * clean node leads to: every deposit once, nothing else.
 */
describe('a fault-injecting RPC transport changes nothing', () => {
  const c = useChainTest({ CHAIN_LOG_RANGE: '64' });

  it('credits every deposit exactly once through errors, refused ranges, duplicate/overlapping/out-of-order logs and a lagging node', async () => {
    const seed = propertySeed(20261127);
    const faulty = faultyTransport(c.anvil.url, seededRandom(seed), {
      error: 0.15,
      maxRange: 7,
      duplicate: 0.5,
      overlap: 0.5,
      shuffle: 0.5,
      behind: 0.2,
      behindBlocks: 6,
    });
    configureCustody(c.t.ctx, { clients: { bsc: evmClient(faulty.transport) } });
    // Ticks as the scheduler runs them: a tick that gives up (too many failures) is just a failed tick.
    let failedTicks = 0;
    const tickAsScheduler = () =>
      watchOnce(c.t.ctx, 'bsc').catch(() => {
        failedTicks++;
        return null;
      });
    const users = [await c.user(), await c.user(), await c.user()];
    const forged = await c.anvil.deployToken(18, 'USDT');
    const expected = new Map<bigint, bigint>(users.map((u) => [u.id, 0n]));
    const keys: string[] = [];
    const rnd = seededRandom(seed + 1);
    for (let i = 0; i < 24; i++) {
      const u = users[i % 3]!;
      const micro = BigInt(1_000_000 + Math.floor(rnd() * 50_000_000));
      const m = await c.anvil.mint(c.bsc, u.evm, micro * 10n ** 12n);
      keys.push(chainKey('bsc', m.txHash.toLowerCase(), 0));
      expected.set(u.id, expected.get(u.id)! + micro);
      if (i % 5 === 0) await c.anvil.mint(forged, u.evm, usdtRaw('99', 18));
      await c.anvil.mine(Math.floor(rnd() * 3));
      // The watcher runs while deposits arrive, so its ranges end at the newest blocks.
      await tickAsScheduler();
    }
    await c.anvil.mine(6);

    const head = await c.anvil.head();
    for (let tick = 0; tick < 400; tick++) {
      const r = await tickAsScheduler();
      if (r && r.finalHeight >= head - 4n && !(await c.t.db.selectFrom('chain_observations').select('id').where('status', '=', 'seen').executeTakeFirst()))
        break;
    }
    for (const u of users) expect(await c.balance(u.id), replayWith(seed)).toBe(expected.get(u.id));
    const posted = await c.t.db.selectFrom('ledger_entries').select('idempotency_key').where('kind', '=', 'deposit').execute();
    expect(posted.map((p) => p.idempotency_key).sort(), replayWith(seed)).toEqual([...keys].sort());
    const rows = await c.t.db.selectFrom('chain_observations').select(['status']).execute();
    expect(rows).toHaveLength(24);
    expect(rows.every((r) => r.status === 'credited')).toBe(true);
    expect((await ledger.verify(c.t.db)).ok).toBe(true);
    // The faults did happen.
    expect(faulty.counts.errors).toBeGreaterThan(0);
    expect(faulty.counts.refusedRanges).toBeGreaterThan(0);
    expect(faulty.counts.duplicated).toBeGreaterThan(0);
    expect(faulty.counts.overlapped).toBeGreaterThan(0);
    expect(faulty.counts.behind).toBeGreaterThan(0);
    expect(failedTicks).toBeLessThan(200);
  });
});
