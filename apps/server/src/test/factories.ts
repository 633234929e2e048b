import { randomBytes, randomUUID } from 'node:crypto';
import { usd } from '@app/core';
import type { Executor, DB } from '../db/types';
import { createSession } from '../modules/auth/sessions';
import * as ledger from '../modules/ledger/service';
import '../modules/users/table';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
function randomUsername(): string {
  const bytes = randomBytes(9);
  return Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join('');
}

export interface TestUser {
  id: bigint;
  username: string;
  email: string;
  name: string;
  token: string;
}

/** A verified user inserted directly (tests only), with a session token. */
export async function createUser(
  db: Executor,
  secret: string,
  opts: { name?: string; email?: string; referrerId?: bigint | null; isAdmin?: boolean; status?: 'inactive' | 'active' | 'blocked' } = {},
): Promise<TestUser> {
  const username = randomUsername();
  const email = opts.email ?? `${username.toLowerCase()}@example.test`;
  const name = opts.name ?? `User ${username}`;
  const row = await db
    .insertInto('users')
    .values({
      name,
      email,
      username,
      password_hash: null,
      referrer_id: opts.referrerId ?? null,
      status: opts.status ?? 'inactive',
      is_admin: opts.isAdmin ?? false,
      email_verified_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const token = await createSession(db, secret, row.id);
  return { id: row.id, username, email, name, token };
}

/** Moves test money from the test-funding system account to one balance of a user, through the ledger. */
async function fund(db: DB, userId: bigint, balance: 'deposit' | 'income', amountUsd: number | string, key: string): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await ledger.post(tx, {
      key,
      kind: 'test_funding',
      userId,
      postings: [
        { account: ledger.systemAccount(ledger.SYSTEM.testFunding), amount: -usd(amountUsd) },
        { account: ledger.userAccount(userId, balance), amount: usd(amountUsd) },
      ],
    });
  });
}

/**
 * Funds a user's deposit balance through the ledger (the test stand-in for a finished deposit;
 * never a route). Amount in USD.
 */
export async function fundDeposit(db: DB, userId: bigint, amountUsd: number | string, key = `test-fund:${randomUUID()}`): Promise<void> {
  await fund(db, userId, 'deposit', amountUsd, key);
}

/** Same for the income (withdrawable) balance. */
export async function fundIncome(db: DB, userId: bigint, amountUsd: number | string, key = `test-fund-income:${randomUUID()}`): Promise<void> {
  await fund(db, userId, 'income', amountUsd, key);
}

export const auth = (token: string) => ({ authorization: `Bearer ${token}` });
