import { describe, expect, it } from 'vitest';
import { admin } from '../contracts/admin';
import { ZTransferHistoryQuery } from './common';

const message = (r: { success: boolean; error?: { issues: { message: string }[] } }) => (r.success ? null : r.error!.issues[0]!.message);

// Review finding: list filters answered zod's own wording ('Invalid option: expected one of …').
describe('list filters name what they accept', () => {
  it.each([
    ['transfer type', ZTransferHistoryQuery, { type: 'bogus' }, 'type must be deposit or withdraw'],
    ['admin tickets status', admin.tickets.query!, { status: 'bogus' }, 'status must be open, answered or closed'],
    ['admin withdrawals status', admin.withdrawals.query!, { status: 'bogus' }, 'status must be pending, approved, sent, completed or rejected'],
    ['admin payments review', admin.payments.query!, { review: 'yes' }, 'review must be true or false'],
    ['admin payments status', admin.payments.query!, { status: 'x'.repeat(21) }, 'status must be at most 20 characters'],
    ['admin users search', admin.users.query!, { q: 'x'.repeat(101) }, 'q must be at most 100 characters'],
  ])('%s', (_name, schema, query, expected) => {
    expect(message(schema.safeParse(query))).toBe(expected);
  });

  it('still accepts the documented values', () => {
    expect(ZTransferHistoryQuery.safeParse({ type: 'deposit' }).success).toBe(true);
    expect(admin.withdrawals.query!.safeParse({ status: 'pending' }).success).toBe(true);
    expect(admin.payments.query!.safeParse({ review: 'true' }).success).toBe(true);
  });
});
