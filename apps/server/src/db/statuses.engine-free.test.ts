import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  FINAL_PAYMENT_STATUSES,
  OPEN_PAYMENT_STATUSES,
  PAYMENT_STATUSES,
  STAKE_STATUSES,
  TICKET_STATUSES,
  USER_STATUSES,
  WITHDRAWAL_STATUSES,
} from '@app/core';
import { ZActivityItem } from '@app/core/contracts/user';
import { ZHistoryRecord } from '@app/core/contracts/money';
import { describe, expect, it } from 'vitest';

/** The values a table's status check constraint allows, from the schema the migrations make. */
function allowed(table: string): string[] {
  const schema = readFileSync(path.join(import.meta.dirname, 'schema.sql'), 'utf8');
  const m = new RegExp(`constraint ${table}_status_check CHECK \\(\\(status = ANY \\(ARRAY\\[([^\\]]*)\\]`).exec(schema);
  if (!m) throw new Error(`no status check on ${table}`);
  return [...m[1]!.matchAll(/'([a-z_]+)'::text/g)].map((v) => v[1]!);
}

describe('the statuses the API declares are the ones the database allows', () => {
  it.each([
    ['payments', PAYMENT_STATUSES],
    ['withdrawals', WITHDRAWAL_STATUSES],
    ['stakes', STAKE_STATUSES],
    ['support_tickets', TICKET_STATUSES],
    ['users', USER_STATUSES],
  ])('%s', (table, declared) => {
    expect([...declared].sort()).toEqual(allowed(table).sort());
  });

  it('splits the payment statuses into open and final, each once (server and browser read the same lists)', () => {
    expect([...OPEN_PAYMENT_STATUSES, ...FINAL_PAYMENT_STATUSES].sort()).toEqual([...PAYMENT_STATUSES].sort());
  });

  it('refuses a status of another kind of record, or one nobody declared', () => {
    const base = { id: '1', createdAt: '2026-11-27T00:00:00.000Z', amount_usd: 10 };
    expect(ZActivityItem.safeParse({ ...base, recordType: 'staking', status: 'active' }).success).toBe(true);
    expect(ZActivityItem.safeParse({ ...base, recordType: 'staking', status: 'finished' }).success).toBe(false);
    expect(ZActivityItem.safeParse({ ...base, recordType: 'withdrawal', status: 'rejected' }).success).toBe(true);
    const row = { id: '1', createdAt: base.createdAt, amount: 1, amount_usd: 1, extra: null };
    expect(ZHistoryRecord.safeParse({ ...row, status: 'partially_paid' }).success).toBe(true);
    expect(ZHistoryRecord.safeParse({ ...row, status: 'Finished' }).success).toBe(false);
  });
});
