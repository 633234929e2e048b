import { microToNumber, type TCreateTransferRequest } from '@app/core';
import type { TTransferRecord } from '@app/core/contracts';
import { toMicro } from '@app/core';
import { sql } from 'kysely';
import { txRetries } from '../../db/tx';
import type { DB, Executor } from '../../db/types';
import { dbError } from '../../lib/db-errors';
import { paginate } from '../../lib/paginate';
import './table';

/**
 * A transfer between two users (server design, section 4): type 'deposit' moves deposit balance to
 * deposit balance, 'withdraw' income to income. Not to oneself, not to an unknown, blocked or
 * unverified user (app_transfer's UT001-UT003).
 */
export async function createTransfer(db: DB, senderId: bigint, input: TCreateTransferRequest, tokenHash?: string): Promise<{ id: bigint; receiver: string }> {
  const amount = toMicro(input.amount_usd)!;
  // One round trip: the whole transfer is the server-side function app_transfer (db/schema.sql),
  // which posts through app_post_many, the ledger's one posting implementation (migration 0180); a
  // single statement commits or rolls back as a whole.
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await sql<{
        transfer_id: bigint;
        receiver_id: bigint;
      }>`${
        // With the request's token hash the function checks the session first (migration 0103), so
        // the route may authenticate from the session cache: still one statement.
        tokenHash === undefined
          ? sql`select transfer_id, receiver_id from app_transfer(${senderId}::bigint, ${input.username}::text, ${input.type}::text, ${amount}::bigint)`
          : sql`select transfer_id, receiver_id from app_transfer_as(${tokenHash}::text, ${senderId}::bigint, ${input.username}::text, ${input.type}::text, ${amount}::bigint)`
      }`.execute(db);
      return { id: res.rows[0]!.transfer_id, receiver: input.username };
    } catch (err) {
      // The functions' refusals arrive as SQLSTATEs (lib/db-errors.ts), each answered with its field.
      const known = dbError(err, { withFields: true });
      if (known) throw known;
      const code = (err as { code?: string }).code;
      // A deadlock victim wrote nothing: run it again, as withTx does for a transaction.
      if (attempt >= 4 || !RETRYABLE.has(code ?? '')) throw err;
      txRetries.count++;
      await new Promise((r) => setTimeout(r, Math.min(500, 10 * 2 ** attempt) * (0.5 + Math.random())));
    }
  }
}

const RETRYABLE = new Set(['40P01', '40001']);

/** Transfers the user sent or received, newest first; both parties see the record. */
export async function listTransfers(
  db: Executor,
  userId: bigint,
  opts: { page: number; perPage: number; type?: 'deposit' | 'withdraw' | '' | undefined; startDate?: string | undefined; endDate?: string | undefined },
): Promise<{ rows: (TTransferRecord & { direction: 'sent' | 'received' })[]; total: number }> {
  let q = db
    .selectFrom('transfers as t')
    .innerJoin('users as s', 's.id', 't.sender_id')
    .innerJoin('users as r', 'r.id', 't.receiver_id')
    .where((eb) => eb.or([eb('t.sender_id', '=', userId), eb('t.receiver_id', '=', userId)]));
  if (opts.type) q = q.where('t.type', '=', opts.type);
  if (opts.startDate) q = q.where('t.created_at', '>=', new Date(`${opts.startDate}T00:00:00Z`));
  if (opts.endDate) q = q.where('t.created_at', '<', new Date(Date.parse(`${opts.endDate}T00:00:00Z`) + 86_400_000));
  const { rows, total } = await paginate(q, opts.page, opts.perPage, (p) =>
    p
      .select(['t.id', 't.sender_id', 't.type', 't.amount', 't.created_at', 's.username as sender', 'r.username as receiver'])
      .orderBy('t.created_at', 'desc')
      .orderBy('t.id', 'desc'),
  );
  return {
    total,
    rows: rows.map((r) => ({
      id: String(r.id),
      createdAt: r.created_at.toISOString(),
      amount_usd: microToNumber(BigInt(r.amount)),
      sender_id: String(r.sender_id),
      type: r.type,
      direction: r.sender_id === userId ? 'sent' : 'received',
      Sender: { username: r.sender },
      Receiver: { username: r.receiver },
    })),
  };
}
