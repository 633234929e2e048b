import { microToNumber } from '@app/core';
import type { Executor } from '../../db/types';
import { listPaymentsForAdmin } from '../payments/service';
import type { PaymentStatus } from '../payments/service';

/** Payments for the admin list, newest first, optionally by status or only those needing review. */
export async function listPayments(db: Executor, opts: { status?: string | undefined; review?: boolean | undefined; page: number; perPage: number }) {
  const { rows, total } = await listPaymentsForAdmin(db, {
    page: opts.page,
    perPage: opts.perPage,
    ...(opts.status ? { status: opts.status as PaymentStatus } : {}),
    ...(opts.review ? { needsReview: true } : {}),
  });
  return {
    total,
    rows: rows.map((r) => ({
      id: String(r.id),
      payment_id: r.provider_payment_id,
      user: { id: String(r.user_id), username: r.username },
      pay_currency: r.pay_currency,
      price_amount: microToNumber(BigInt(r.price_amount)),
      actually_paid: microToNumber(BigInt(r.actually_paid)),
      credited_amount: microToNumber(BigInt(r.credited_amount)),
      status: r.status,
      needs_review: r.needs_review,
      createdAt: new Date(r.created_at).toISOString(),
    })),
  };
}
