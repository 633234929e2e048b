import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../context';
import { propertySeed, sized } from '../../test/property-knobs';
import { faultyTransport } from '../../test/chain/faulty-rpc';
import { seededRandom } from '../../test/seeded-random';
import * as ledger from '../ledger/service';
import { MIN_DEPOSIT_MICRO } from './amounts';
import { evmClient, TRANSFER_TOPIC } from './rpc/client';
import { httpTransport, type RpcTransport } from './rpc/json-rpc';
import { configureCustody } from './runtime';
import { useChainTest } from '../../test/chain/test-chain';
import { watchOnce } from './watcher';

const CONF = 4;
/** Seeded and bounded for CI (about 30 s per engine); 100 runs under TEST_LONG=1 (test/property-knobs.ts). */
const RUNS = sized(12, 100);
const SEED = propertySeed(33);

type Cmd =
  | { k: 'deposit'; user: number; micro: bigint }
  | { k: 'mine'; n: number }
  | { k: 'reorg'; depth: number }
  | { k: 'tick'; faults: boolean }
  | { k: 'kill'; afterCalls: number };

/**
 * Random deposits, reorgs under the depth, RPC faults and kills (a crash in the middle of a tick,
 * then a new process: nothing in memory survives) against a real chain. Afterwards, once all is
 * final: each user's balance is the sum of the final canonical transfers to their address (those
 * at or above the minimum), each credited once, and no balance is below zero.
 */
describe('property: credited = final transfers, each once', () => {
  const c = useChainTest({ CHAIN_BSC_CONFIRMATIONS: String(CONF), CHAIN_LOG_RANGE: '16' });

  it('holds over random deposits, reorgs under the depth, RPC faults and kills', async () => {
    const cmd: fc.Arbitrary<Cmd> = fc.oneof(
      { weight: 4, arbitrary: fc.record({ k: fc.constant('deposit' as const), user: fc.nat(2), micro: fc.bigInt(500_000n, 40_000_000n) }) },
      { weight: 3, arbitrary: fc.record({ k: fc.constant('mine' as const), n: fc.integer({ min: 1, max: 3 }) }) },
      { weight: 2, arbitrary: fc.record({ k: fc.constant('reorg' as const), depth: fc.integer({ min: 1, max: CONF - 1 }) }) },
      { weight: 4, arbitrary: fc.record({ k: fc.constant('tick' as const), faults: fc.boolean() }) },
      { weight: 1, arbitrary: fc.record({ k: fc.constant('kill' as const), afterCalls: fc.integer({ min: 0, max: 8 }) }) },
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(cmd, { minLength: 5, maxLength: 18 }), fc.integer(), async (cmds, seed) => {
        run++;
        // Each run has users of its own; the chain and the database go on from run to run.
        const users = [await c.user(), await c.user(), await c.user()];
        let ctx: AppContext = { ...c.t.ctx };
        const random = seededRandom(seed);
        const restart = (transport?: RpcTransport) => {
          // A new process: a fresh context, so no runtime state (clients, ranges) survives.
          ctx = { ...c.t.ctx };
          configureCustody(ctx, {
            clients: transport ? { bsc: evmClient(transport) } : {},
            tuning: { sleep: async () => undefined, startAt: () => 0n, attempts: 3 },
          });
        };
        restart();
        for (const x of cmds) {
          if (x.k === 'deposit') await c.anvil.mint(c.bsc, users[x.user]!.evm, x.micro * 10n ** 12n);
          else if (x.k === 'mine') await c.anvil.mine(x.n);
          else if (x.k === 'reorg') {
            // anvil refuses a reorg deeper than the chain (CI once drew depth 3 at height 2).
            const depth = Math.min(x.depth, Number(await c.anvil.head()));
            if (depth > 0) await c.anvil.reorg(depth);
          } else if (x.k === 'tick') {
            if (x.faults)
              restart(
                faultyTransport(c.anvil.url, random, { error: 0.2, maxRange: 5, duplicate: 0.3, overlap: 0.3, shuffle: 0.5, behind: 0.2, behindBlocks: 3 })
                  .transport,
              );
            await watchOnce(ctx, 'bsc').catch(() => undefined);
          } else {
            // Dies after `afterCalls` node calls, in the middle of whatever the tick was doing.
            let calls = 0;
            const real = httpTransport(c.anvil.url);
            restart((body, o) => (calls++ >= x.afterCalls ? Promise.reject(new Error('killed')) : real(body, o)));
            await watchOnce(ctx, 'bsc').catch(() => undefined);
            restart();
          }
        }
        // Everything becomes final on a clean node.
        restart();
        await c.anvil.mine(CONF + 1);
        for (let i = 0; i < 20; i++) {
          const r = await watchOnce(ctx, 'bsc');
          if (r.finalHeight >= r.head! - BigInt(CONF) + 1n && r.credited === 0) break;
        }

        // The truth: the canonical chain's transfers of the token to these users.
        const logs = await c.anvil.rpc<{ topics: string[]; data: string; transactionHash: string; logIndex: string }[]>('eth_getLogs', [
          { fromBlock: '0x0', toBlock: 'latest', address: c.bsc, topics: [TRANSFER_TOPIC, null, users.map((u) => `0x${u.evm.slice(2).padStart(64, '0')}`)] },
        ]);
        for (const u of users) {
          const mine = logs.filter((l) => l.topics[2]!.endsWith(u.evm.slice(2)));
          const expected = mine.map((l) => BigInt(l.data) / 10n ** 12n).filter((m) => m >= MIN_DEPOSIT_MICRO);
          const balance = await c.balance(u.id);
          expect(balance, `run ${run}, user ${u.id}`).toBe(expected.reduce((a, b) => a + b, 0n));
          const keys = await c.t.db.selectFrom('ledger_entries').select('idempotency_key').where('user_id', '=', u.id).where('kind', '=', 'deposit').execute();
          expect(keys.map((k) => k.idempotency_key).sort()).toEqual(
            mine
              .filter((l) => BigInt(l.data) / 10n ** 12n >= MIN_DEPOSIT_MICRO)
              .map((l) => `chain:bsc:${l.transactionHash}:${Number(BigInt(l.logIndex))}`)
              .sort(),
          );
        }
        const v = await ledger.verify(c.t.db);
        expect(v.negativeUserAccounts).toEqual([]);
        expect(v.ok).toBe(true);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  }, 600_000);
});
