import { expect } from 'vitest';
import * as ledger from '../modules/ledger/service';
import { withdrawer } from './api';
import type { TestApp } from './app';
import { fundIncome, type TestUser } from './factories';

/**
 * The check of a withdrawal the API must refuse: `u` is given 100 of income, asks for `body`, and
 * gets a 400 with `message` as the answer's message and on `field`, and the ledger has no new entry.
 */
export const expectRefusedWithdrawal = (t: TestApp) => async (u: TestUser, body: Record<string, unknown>, message: string, field: string) => {
  await fundIncome(t.db, u.id, 100);
  const before = (await ledger.verify(t.db)).entries;
  const res = await withdrawer(t)(u, body);
  expect(res.statusCode).toBe(400);
  expect(res.json().message).toBe(message);
  expect(res.json().errors[field]).toBe(message);
  expect((await ledger.verify(t.db)).entries).toBe(before);
};
