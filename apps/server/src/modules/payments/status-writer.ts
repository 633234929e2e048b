import { sql } from 'kysely';
import type { Tx } from '../../db/types';
import type { PaymentRow } from './present';
import { canMove, PAYMENT_STATUSES, type PaymentStatus } from './status';
import './table';

/**
 * THE writer of `payments.status` (issue 47): every move of a payment's status, by any path (a
 * gateway report, a cancel, the window job, the chain watcher, an admin's credit), goes through
 * movePayments, as the ledger's balances go through its one posting function. It applies canMove
 * under the row lock the UPDATE itself takes (a move canMove refuses changes nothing and is not
 * returned), and appends the status history once per move, capped at HISTORY_CAP entries. The
 * INSERT that creates a payment is not a move. `payments/status-writers.test.ts` refuses any
 * other writer in the sources and in the live SQL functions.
 */

/** The history kept in `extra.history`: the newest this many entries. */
export const HISTORY_CAP = 20;

/** Every (from, to) pair canMove allows, as 'from>to': the SQL side of the same rule, made from it. */
const ALLOWED_MOVES = PAYMENT_STATUSES.flatMap((from) => PAYMENT_STATUSES.filter((to) => canMove(from, to)).map((to) => `${from}>${to}`));

/**
 * The one move canMove does not allow that an admin makes: crediting a chain transfer held under
 * the minimum moves its payment out of `failed` (docs/decisions/2026-11-27-chain-gateway-rules.md).
 */
const ADMIN_MOVES = ['failed>finished'];

export interface StatusMove {
  /** payments.id */
  id: bigint;
  status: PaymentStatus;
  /** who moved it, kept in its history entry ('user', 'window', 'reorg', 'admin'); 'admin' alone may take ADMIN_MOVES */
  by?: 'user' | 'window' | 'reorg' | 'admin';
  /** the move happens only from one of these statuses (the caller's precondition, decided under the row lock) */
  from?: readonly PaymentStatus[];
  /** statuses passed through on the way to `status` in this one move (a batch of chain transfers), each put in the history */
  via?: readonly PaymentStatus[];
  actuallyPaid?: bigint;
  payAmount?: bigint;
  creditedAmount?: bigint;
  confirmations?: number;
  txHash?: string | null;
  needsReview?: boolean;
  reviewReason?: string | null;
  lastCheckedAt?: Date;
  /** keys set in `extra` (not `history`, which is the writer's) */
  extraSet?: Record<string, unknown>;
  /** keys removed from `extra` */
  extraUnset?: readonly string[];
}

const list = (values: readonly string[] | undefined) => (values?.length ? values.join(',') : null);

/**
 * Moves many payments in one statement, in the caller's transaction. Returns the rows that moved
 * (a move canMove or `from` refuses is left out), in no particular order.
 */
export async function movePayments(tx: Tx, moves: readonly StatusMove[], now: Date = new Date()): Promise<PaymentRow[]> {
  if (!moves.length) return [];
  if (new Set(moves.map((m) => m.id)).size !== moves.length) throw new Error('movePayments: one move per payment');
  for (const m of moves) {
    const path = [...(m.via ?? []), m.status];
    for (let i = 1; i < path.length; i++) if (!canMove(path[i - 1]!, path[i]!)) throw new Error(`movePayments: ${path[i - 1]} cannot move to ${path[i]}`);
    if (m.extraSet && 'history' in m.extraSet) throw new Error('movePayments: the history is the writer’s');
  }
  const at = now.toISOString();
  const col = <T>(f: (m: StatusMove) => T) => moves.map(f);
  const big = (v: bigint | undefined) => (v === undefined ? null : v.toString());
  const res = await sql<PaymentRow>`
    update payments p set
      status = x.status,
      actually_paid = coalesce(x.paid, p.actually_paid),
      pay_amount = coalesce(x.pay_amount, p.pay_amount),
      credited_amount = coalesce(x.credited, p.credited_amount),
      confirmations = coalesce(x.conf, p.confirmations),
      tx_hash = coalesce(x.tx, p.tx_hash),
      needs_review = coalesce(x.review, p.needs_review),
      review_reason = coalesce(x.reason, p.review_reason),
      last_checked_at = coalesce(x.checked, p.last_checked_at),
      updated_at = ${now},
      extra = case when p.status = x.status and x.via is null
        then (p.extra - coalesce(string_to_array(x.extra_unset, ','), '{}'::text[])) || coalesce(x.extra_set::jsonb, '{}'::jsonb)
        else jsonb_set((p.extra - coalesce(string_to_array(x.extra_unset, ','), '{}'::text[])) || coalesce(x.extra_set::jsonb, '{}'::jsonb), '{history}', (
          select coalesce(jsonb_agg(e order by i), '[]'::jsonb)
          from (select
                  case when jsonb_typeof(p.extra->'history') = 'array' then p.extra->'history' else '[]'::jsonb end
                  || coalesce((select jsonb_agg(jsonb_build_object('status', v.s, 'at', ${at}::text) order by v.o)
                               from unnest(string_to_array(x.via, ',')) with ordinality v(s, o)), '[]'::jsonb)
                  || case when p.status = x.status then '[]'::jsonb
                     else jsonb_build_array(jsonb_build_object('status', x.status, 'at', ${at}::text)
                          || case when x.actor is null then '{}'::jsonb else jsonb_build_object('by', x.actor) end) end as h) hh,
               jsonb_array_elements(hh.h) with ordinality t(e, i)
          where i > jsonb_array_length(hh.h) - ${HISTORY_CAP}))
        end
    from unnest(
      ${col((m) => m.id.toString())}::bigint[], ${col((m) => m.status)}::text[], ${col((m) => m.by ?? null)}::text[],
      ${col((m) => list(m.from))}::text[], ${col((m) => list(m.via))}::text[],
      ${col((m) => big(m.actuallyPaid))}::bigint[], ${col((m) => big(m.payAmount))}::bigint[], ${col((m) => big(m.creditedAmount))}::bigint[],
      ${col((m) => m.confirmations ?? null)}::int[], ${col((m) => m.txHash ?? null)}::text[], ${col((m) => m.needsReview ?? null)}::boolean[],
      ${col((m) => m.reviewReason ?? null)}::text[], ${col((m) => m.lastCheckedAt?.toISOString() ?? null)}::timestamptz[],
      ${col((m) => (m.extraSet ? JSON.stringify(m.extraSet) : null))}::text[], ${col((m) => list(m.extraUnset))}::text[]
    ) x(id, status, actor, from_list, via, paid, pay_amount, credited, conf, tx, review, reason, checked, extra_set, extra_unset)
    where p.id = x.id
      and (p.status || '>' || x.status = any(${ALLOWED_MOVES}::text[])
           or (x.actor = 'admin' and p.status || '>' || x.status = any(${ADMIN_MOVES}::text[])))
      and (x.from_list is null or p.status = any(string_to_array(x.from_list, ',')))
    returning p.*`.execute(tx);
  return res.rows;
}

/** movePayments for one payment: the row after the move, or undefined when the move was refused. */
export async function movePayment(tx: Tx, move: StatusMove, now?: Date): Promise<PaymentRow | undefined> {
  return (await movePayments(tx, [move], now))[0];
}
