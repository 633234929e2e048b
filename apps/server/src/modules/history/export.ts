import { UNVERIFIED_MEMBER_LABEL, type TDateRange } from '@app/core';
import { csvAmount, csvCount, type CsvValue } from '@app/core/csv-export';
import type { FastifyReply } from 'fastify';
import type { Executor } from '../../db/types';
import { allRows, sendCsv } from '../../lib/csv-stream';
import { listIncome } from '../income/service';
import { listStakes } from '../staking/service';
import { listDirects } from '../team/service';
import { listTransfers } from '../transfers/service';
import { getHistory } from './service';

/** The record's extra as an object (the server wrote it, so it parses). */
function extraOf(text: string | null): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text ?? '{}');
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): CsvValue => (typeof v === 'number' ? csvAmount(v) : null);
const INCOME_TYPES = { 1: 'roi', 2: 'referral', 3: 'reward' } as const;

/**
 * GET /api/user/export?list=…: one of the caller's histories as CSV (issue 32, item 18), whole,
 * within its date range, through the same list functions as the screens. Dates are ISO 8601 (UTC),
 * amounts plain numbers, the currency in the header.
 */
export function exportUserList(
  db: Executor,
  reply: FastifyReply,
  userId: bigint,
  q: { list: 'deposits' | 'withdrawals' | 'transfers' | 'income' | 'stakes' | 'team'; income_type?: 1 | 2 | 3 | undefined } & TDateRange,
): FastifyReply {
  const range: TDateRange = { start_date: q.start_date || undefined, end_date: q.end_date || undefined };
  switch (q.list) {
    case 'deposits':
      return sendCsv(
        reply,
        'deposits',
        ['Date (UTC)', 'ID', 'Status', 'Network', 'Asked (USDT)', 'Received (USDT)', 'Credited (USDT)', 'Deposit address', 'Transaction hash'],
        allRows((page, perPage) => getHistory(db, userId, 'transaction', page, perPage, range).then((h) => ({ rows: h.data }))),
        (r) => {
          const e = extraOf(r.extra);
          return [
            r.createdAt,
            r.id,
            r.status === 'expired' && e.cancelled_at ? 'cancelled' : r.status,
            str(e.network),
            csvAmount(r.amount_usd),
            num(e.amount_received),
            num(e.credited_amount),
            str(e.wallet_address),
            str(e.last_transaction_hash),
          ];
        },
      );
    case 'withdrawals':
      return sendCsv(
        reply,
        'withdrawals',
        ['Date (UTC)', 'ID', 'Status', 'Amount (USDT)', 'Fee (USDT)', 'Sent to wallet (USDT)', 'Network', 'Wallet address', 'Transaction hash'],
        allRows((page, perPage) => getHistory(db, userId, 'withdrawal', page, perPage, range).then((h) => ({ rows: h.data }))),
        (r) => {
          const e = extraOf(r.extra);
          return [
            r.createdAt,
            r.id,
            r.status,
            csvAmount(Math.abs(r.amount_usd)),
            num(e.fee),
            num(e.expected_amount),
            str(e.network),
            str(e.wallet_address),
            str(e.last_transaction_hash),
          ];
        },
      );
    case 'transfers':
      return sendCsv(
        reply,
        'transfers',
        ['Date (UTC)', 'ID', 'Direction', 'Counterparty', 'Wallet', 'Amount (USDT)'],
        allRows((page, perPage) => listTransfers(db, userId, { page, perPage, startDate: range.start_date, endDate: range.end_date })),
        (t) => [
          t.createdAt,
          t.id,
          t.direction,
          t.direction === 'sent' ? t.Receiver.username : t.Sender.username,
          t.type,
          csvAmount(t.direction === 'sent' ? -t.amount_usd : t.amount_usd),
        ],
      );
    case 'income': {
      const type = q.income_type ?? 1;
      return sendCsv(
        reply,
        `income-${INCOME_TYPES[type]}`,
        ['Date (UTC)', 'For date', 'ID', 'Type', 'Amount (USDT)', 'Note'],
        allRows((page, perPage) => listIncome(db, userId, type, page, perPage, range)),
        (r) => [r.createdAt, r.for_date ?? null, r.id, INCOME_TYPES[type], csvAmount(r.amount), r.note],
      );
    }
    case 'stakes':
      return sendCsv(
        reply,
        'stakes',
        ['Date (UTC)', 'ID', 'Status', 'Amount (USDT)', 'Start date', 'Days', 'Earned (USDT)', 'Cap (USDT)'],
        allRows((page, perPage) => listStakes(db, userId, page, perPage, new Date(), range)),
        (s) => [s.createdAt, s.id, s.status, csvAmount(s.amount_usd), s.start_date, csvCount(s.days_elapsed), csvAmount(s.earned), csvAmount(s.cap)],
      );
    case 'team':
      return sendCsv(
        reply,
        'team',
        ['Joined (UTC)', 'Username', 'Name', 'Status'],
        allRows((page, perPage) => listDirects(db, userId, page, perPage)),
        (m) => [m.createdAt, m.username ?? UNVERIFIED_MEMBER_LABEL, m.name, m.status],
      );
  }
}
