import { admin } from '@app/core/contracts';
import { csvAmount, csvCount } from '@app/core/csv-export';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import type { Executor } from '../../db/types';
import { allRows, sendCsv } from '../../lib/csv-stream';
import { fieldError } from '../../lib/errors';
import * as support from '../support/service';
import { listWithdrawalsForAdmin } from '../withdrawals/service';
import { listAudit } from './audit';
import { listPayments } from './payments-admin';
import { searchUsers } from './users';

/** A filter as the list's own query accepts it (the list's contract is the one rule), or a 400 naming it. */
function filter<T>(schema: z.ZodType<T>, field: 'status' | 'q' | 'review', value: string | undefined): T | undefined {
  if (value === undefined || value === '') return undefined;
  const r = schema.safeParse(value);
  if (!r.success) throw fieldError(field, r.error.issues[0]?.message ?? `Invalid ${field}`);
  return r.data;
}

const json = (v: unknown): string | null => (v === null || v === undefined ? null : JSON.stringify(v));

/**
 * GET /api/admin/export?list=…: an admin list as CSV (issue 32, item 18), whole, with the list's
 * filters, through the same list functions as the console.
 */
export function exportAdminList(
  db: Executor,
  reply: FastifyReply,
  q: { list: 'users' | 'withdrawals' | 'payments' | 'tickets' | 'audit'; status?: string | undefined; q?: string | undefined; review?: string | undefined },
): FastifyReply {
  switch (q.list) {
    case 'users': {
      const text = filter(admin.users.query.shape.q, 'q', q.q);
      return sendCsv(
        reply,
        'users',
        ['Joined (UTC)', 'ID', 'Username', 'Name', 'Email', 'Status', 'Verified', 'Admin', 'Level'],
        allRows((page, perPage) => searchUsers(db, { q: text, page, perPage })),
        (u) => [u.createdAt, u.id, u.username, u.name, u.email, u.status, u.verified ? 'yes' : 'no', u.is_admin ? 'yes' : 'no', csvCount(u.eligible_level)],
      );
    }
    case 'withdrawals': {
      const status = filter(admin.withdrawals.query.shape.status, 'status', q.status);
      return sendCsv(
        reply,
        'withdrawals',
        [
          'Date (UTC)',
          'ID',
          'Username',
          'Email',
          'Status',
          'Amount (USDT)',
          'Fee (USDT)',
          'Sent to wallet (USDT)',
          'Network',
          'Wallet address',
          'Transaction hash',
          'Reject reason',
          'Processed (UTC)',
        ],
        allRows((page, perPage) => listWithdrawalsForAdmin(db, { status, page, perPage })),
        (w) => [
          w.createdAt,
          w.id,
          w.user.username,
          w.user.email,
          w.status,
          csvAmount(w.amount),
          csvAmount(w.fee),
          csvAmount(w.receive_amount),
          w.network,
          w.wallet_address,
          w.tx_hash,
          w.reject_reason,
          w.processedAt,
        ],
      );
    }
    case 'payments': {
      const status = filter(admin.payments.query.shape.status, 'status', q.status);
      const review = filter(admin.payments.query.shape.review, 'review', q.review);
      return sendCsv(
        reply,
        'payments',
        ['Date (UTC)', 'ID', 'Payment ID', 'Username', 'Currency', 'Status', 'Asked (USDT)', 'Received (USDT)', 'Credited (USDT)', 'Needs review'],
        allRows((page, perPage) => listPayments(db, { status, review: review === 'true', page, perPage })),
        (p) => [
          p.createdAt,
          p.id,
          p.payment_id,
          p.user.username,
          p.pay_currency,
          p.status,
          csvAmount(p.price_amount),
          csvAmount(p.actually_paid),
          csvAmount(p.credited_amount),
          p.needs_review ? 'yes' : 'no',
        ],
      );
    }
    case 'tickets': {
      const status = filter(admin.tickets.query.shape.status, 'status', q.status);
      return sendCsv(
        reply,
        'tickets',
        ['Date (UTC)', 'ID', 'Username', 'Email', 'Subject', 'Status', 'Message', 'Admin response', 'Closed (UTC)'],
        allRows((page, perPage) => support.listAllTickets(db, { status, page, perPage })),
        (t) => [t.createdAt, t.id, t.user.username, t.user.email, t.type, t.status, t.message, t.adminRemark, t.closedAt],
      );
    }
    case 'audit':
      return sendCsv(
        reply,
        'audit-log',
        ['Date (UTC)', 'ID', 'Admin', 'Action', 'Target type', 'Target ID', 'Before', 'After'],
        allRows((page, perPage) => listAudit(db, page, perPage)),
        (a) => [a.createdAt, a.id, a.admin, a.action, a.targetType, a.targetId, json(a.before), json(a.after)],
      );
  }
}
