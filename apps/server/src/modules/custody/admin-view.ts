import { microToNumber } from '@app/core';
import type { TCustodyView } from '@app/core/contracts';
import type { AppContext } from '../../context';
import { reconcile, custodyStatus } from './status';
import { waitingActions } from './waiting';
import './table';
import '../users/table';

const height = (v: bigint | null) => (v === null ? null : Number(v));
const ageS = (at: Date | null, now: Date) => (at ? Math.max(0, Math.floor((now.getTime() - at.getTime()) / 1000)) : null);

/**
 * GET /api/admin/custody: each network's watcher (stale when its node stopped answering), its
 * deposits, the chain against the ledger from the stored balances with their age, one page of the
 * addresses holding the token, and what waits for an admin. Database reads only: a hung node or
 * 10,000 addresses do not slow it (the balances job reads the node, balances.ts).
 */
export async function custodyView(ctx: AppContext, page: { page: number; perPage: number } = { page: 1, perPage: 50 }): Promise<TCustodyView> {
  const now = new Date();
  const [status, rec] = [await custodyStatus(ctx, now), await reconcile(ctx, page)];
  const waiting = await ctx.db
    .selectFrom('chain_observations')
    .innerJoin('users', 'users.id', 'chain_observations.user_id')
    .select([
      'chain_observations.id',
      'chain_observations.network',
      'chain_observations.user_id',
      'users.username',
      'chain_observations.amount',
      'chain_observations.tx_hash',
      'chain_observations.seen_at',
      'chain_observations.note',
      'chain_observations.status',
      'chain_observations.raw_amount',
    ])
    .where('chain_observations.status', 'in', ['below_minimum', 'held'])
    .orderBy('chain_observations.id', 'desc')
    .limit(100)
    .execute();
  return {
    gateway: ctx.config.payments.gateway,
    networks: status.map((s) => {
      const r = rec.find((x) => x.network === s.network);
      return {
        network: s.network,
        state: s.state,
        reason: s.reason,
        head: height(s.head),
        head_age_s: s.headAgeS,
        answered_at: s.answeredAt?.toISOString() ?? null,
        scanned_to: height(s.scannedTo),
        final_height: height(s.finalHeight),
        finalized_tag: height(s.finalizedTag),
        lag: height(s.lag),
        head_at: s.headAt?.toISOString() ?? null,
        halted: s.halted,
        halted_reason: s.haltedReason,
        halted_at: s.haltedAt?.toISOString() ?? null,
        confirmations: s.confirmations,
        deposits: { seen: s.counts.seen, credited: s.counts.credited, below_minimum: s.counts.belowMinimum, held: s.counts.held, orphaned: s.counts.orphaned },
        credited_total: microToNumber(s.creditedTotal),
        reconciliation: {
          at_block: height(r?.atBlock ?? null),
          read_at: r?.readAt?.toISOString() ?? null,
          age_s: ageS(r?.readAt ?? null, now),
          addresses: r?.addresses ?? 0,
          holding: r?.holding ?? 0,
          on_chain: microToNumber(r?.onChain ?? 0n),
          expected: microToNumber(r ? r.onChain - r.difference : 0n),
          ledger_credited: microToNumber(r?.ledgerCredited ?? 0n),
          difference: microToNumber(r?.difference ?? 0n),
          flagged: r?.flagged ?? false,
          ...(r?.error ? { error: r.error } : {}),
        },
        sweep: (r?.balances ?? []).map((b) => ({
          address: b.address,
          user_id: String(b.userId),
          index: b.index,
          path: b.path,
          balance: microToNumber(b.balance),
          read_at: b.readAt.toISOString(),
          age_s: ageS(b.readAt, now),
        })),
        sweep_pagination: { total: r?.holding ?? 0, page: page.page, perPage: page.perPage },
      };
    }),
    not_credited: waiting.map((w) => ({
      id: String(w.id),
      network: w.network,
      user_id: String(w.user_id),
      username: w.username,
      amount: microToNumber(w.amount),
      tx_hash: w.tx_hash,
      seen_at: w.seen_at.toISOString(),
      note: w.note,
      ...waitingActions(ctx, w),
    })),
  };
}
