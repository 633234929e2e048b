import { microToNumber, type TCreateTransferRequest } from '@app/core';
import type { TTransferRecord } from '@app/core/contracts';
import { toMicro } from '@app/core';
import type { DB, Executor } from '../../db/types';
import { withTx } from '../../db/tx';
import { AppError } from '../../lib/errors';
import * as ledger from '../ledger/service';
import './table';

/**
 * A transfer between two users (server design, section 4): type 'deposit' moves deposit balance to
 * deposit balance, 'withdraw' income to income. Not to oneself, not to an unknown or blocked user.
 */
export async function createTransfer(db: DB, senderId: bigint, input: TCreateTransferRequest): Promise<{ id: bigint; receiver: string }> {
  const amount = toMicro(input.amount_usd)!;
  return withTx(db, async (tx) => {
    const receiver = await tx.selectFrom('users').select(['id', 'username', 'status']).where('username', '=', input.username).executeTakeFirst();
    if (!receiver || receiver.status === 'blocked') throw new AppError('NOT_FOUND', 'User not found', { username: 'User not found' });
    if (receiver.id === senderId) throw new AppError('VALIDATION', 'You cannot transfer to yourself', { username: 'You cannot transfer to yourself' });
    const row = await tx
      .insertInto('transfers')
      .values({ sender_id: senderId, receiver_id: receiver.id, type: input.type, amount })
      .returning('id')
      .executeTakeFirstOrThrow();
    const kind = input.type === 'deposit' ? 'deposit' : 'income';
    try {
      await ledger.post(tx, {
        key: `transfer:${row.id}`,
        kind: 'transfer',
        userId: senderId,
        memo: `Transfer #${row.id} to ${receiver.username}`,
        postings: [
          { account: ledger.userAccount(senderId, kind), amount: -amount },
          { account: ledger.userAccount(receiver.id, kind), amount },
        ],
      });
    } catch (err) {
      if (err instanceof AppError && err.code === 'INSUFFICIENT_BALANCE')
        throw new AppError('INSUFFICIENT_BALANCE', 'Insufficient balance', { amount_usd: 'Insufficient balance' });
      throw err;
    }
    return { id: row.id, receiver: receiver.username };
  });
}

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
  const total = await q.select((eb) => eb.fn.countAll<bigint>().as('n')).executeTakeFirstOrThrow();
  const rows = await q
    .select(['t.id', 't.sender_id', 't.type', 't.amount', 't.created_at', 's.username as sender', 'r.username as receiver'])
    .orderBy('t.created_at', 'desc')
    .orderBy('t.id', 'desc')
    .limit(opts.perPage)
    .offset((opts.page - 1) * opts.perPage)
    .execute();
  return {
    total: Number(total.n),
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
