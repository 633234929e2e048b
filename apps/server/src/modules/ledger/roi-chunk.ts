import { sql } from 'kysely';
import type { Tx } from '../../db/types';

export interface RoiChunkResult {
  /** the chunk's last stake id; null when no stake was due after `afterId` */
  lastId: bigint | null;
  stakes: number;
  /** stake-days credited by this call (entries written now, not those a racing run wrote) */
  credits: number;
  total: bigint;
  completed: number;
}

/**
 * Credits ROI for up to `limit` due stakes after `afterId`, up to and including `date`, in one
 * round trip (of part `part` of `parts`: only the stakes of users whose id is part mod parts, with
 * the part's own ROI expense account; migration 0132): the server-side function locks the stakes, their
 * users and accounts in the ledger's stable order, writes one entry roi:<stake>:<day> per
 * stake-day with its postings, moves the balances, and writes the users' roi_income totals and
 * the stakes' progress for exactly the entries it wrote (no income records: ROI history is read
 * from the entries, migration 0137). Runs in the
 * caller's transaction: a chunk commits whole or not at all.
 */
export async function creditRoiChunk(
  tx: Tx,
  opts: { afterId: bigint; date: string; limit: number; advisoryLock: boolean; part?: number; parts?: number },
): Promise<RoiChunkResult> {
  const res = await sql<{ o_last_id: bigint | null; o_stakes: number; o_credits: number; o_total: bigint; o_completed: number }>`
    select * from app_roi_chunk_part(${opts.afterId}::bigint, ${opts.date}::date, ${opts.limit}::int, ${opts.advisoryLock}::boolean,
      ${opts.part ?? 0}::int, ${opts.parts ?? 1}::int)`.execute(tx);
  const r = res.rows[0]!;
  return {
    lastId: r.o_last_id === null ? null : BigInt(r.o_last_id),
    stakes: Number(r.o_stakes),
    credits: Number(r.o_credits),
    total: BigInt(r.o_total),
    completed: Number(r.o_completed),
  };
}
