import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { useTestApp, type TestApp } from '../test/app';
import { inject, withdrawer } from '../test/api';
import { staking, transfers, withdrawals } from '@app/core/contracts/money';
import { createUser, fundDeposit, fundIncome, type TestUser } from '../test/factories';
import { createSession } from '../modules/auth/sessions';

const LIMIT = 3;
const TOO_MANY = { success: false, code: 'RATE_LIMITED', message: 'Too many requests, please try again later.' };

/** The three money routes of one account, each on the given app (one process each). */
function moneyCalls(app: FastifyInstance, receiver: TestUser) {
  return {
    transfer: (token: string) => inject(app, transfers.create, { token, body: { username: receiver.username, amount_usd: 10, type: 'deposit' } }),
    stake: (token: string) => inject(app, staking.create, { token, body: { amount_usd: 50 } }),
    withdraw: (token: string) =>
      inject(app, withdrawals.create, {
        token,
        body: { token: 'USDT', network: 'BSC', wallet_address: '0x52908400098527886E0F7030069857D2E4169EE7', amount_usd: 10 },
      }),
  };
}

async function fundedPair(t: TestApp) {
  const u = await createUser(t.db, t.ctx.secret);
  const other = await createUser(t.db, t.ctx.secret);
  await fundIncome(t.db, u.id, 1000);
  await fundDeposit(t.db, u.id, 10_000);
  return { u, other };
}

/**
 * Issue 29, finding 3 (last sentence): POST /api/withdraw/create had no rate limit. The money routes
 * are now limited per account (RATE_LIMIT_MONEY_PER_MIN), whatever the session or IP.
 *
 * Attack report, money limit: the limit was one budget per route (each route had its own counter:
 * its own LRU in memory, its own key in Redis), so N transfers + N stakes + N withdrawals all passed
 * in a minute. It is now one budget per account shared by the three routes, in the rate-limit store
 * that every process shares (Redis with REDIS_URL). Both tests below failed before (3N passed).
 */
describe('per-account limit on money routes', () => {
  const t = useTestApp({ RATE_LIMIT_MONEY_PER_MIN: String(LIMIT) });

  it('answers 429 past the limit per account, across sessions, and not for another account', async () => {
    const { u, other } = await fundedPair(t);
    const second = await createSession(t.db, t.ctx.secret, u.id);
    const withdraw = withdrawer(t);
    const codes = [];
    for (const token of [u.token, second, u.token, second]) codes.push((await withdraw({ ...u, token }, { amount_usd: 10 })).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
    const limited = await withdraw(u, { amount_usd: 10 });
    expect(limited.json()).toEqual(TOO_MANY);
    await fundIncome(t.db, other.id, 100);
    expect((await withdraw(other, { amount_usd: 10 })).statusCode).toBe(200);
  });

  it('one budget for transfer, stake and withdraw together: N in all, then 429 with Retry-After', async () => {
    const { u, other } = await fundedPair(t);
    const second = await createSession(t.db, t.ctx.secret, u.id);
    const call = moneyCalls(t.app, other);
    // Every route in turn, from two sessions; transfers go through the session cache after the first.
    const plan = [call.transfer, call.stake, call.withdraw, call.transfer, call.stake, call.withdraw, call.transfer, call.transfer, call.stake];
    const answers = [];
    for (const [i, run] of plan.entries()) answers.push(await run(i % 2 ? second : u.token));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 429, 429, 429, 429, 429, 429]);
    for (const a of answers.slice(LIMIT)) {
      expect(a.json()).toEqual(TOO_MANY);
      expect(Number(a.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(a.headers['retry-after'])).toBeLessThanOrEqual(60);
    }
    // The other account has its own budget.
    await fundDeposit(t.db, other.id, 100);
    expect((await moneyCalls(t.app, u).transfer(other.token)).statusCode).toBe(200);
  });
});

/**
 * Two processes (two apps, each with its own rate-limit plugin and store) on one database and one
 * Redis: the budget is the account's, not the process's. A key prefix of its own per run keeps
 * parallel test files and earlier runs (the same user ids in every test database) apart.
 */
describe('per-account money limit shared through Redis by two processes', () => {
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const t = useTestApp({ RATE_LIMIT_MONEY_PER_MIN: String(LIMIT), REDIS_URL: redisUrl, RATE_LIMIT_REDIS_PREFIX: `test-money-${randomUUID()}:` });
  let second: FastifyInstance;
  beforeAll(async () => {
    second = await buildApp({ ctx: t.ctx, logger: false, checkResponses: true });
    await second.ready();
  });
  afterAll(async () => second?.close());

  it('N transfers + N stakes + N withdrawals spread over both, in parallel: N pass in all', async () => {
    const { u, other } = await fundedPair(t);
    const apps = [moneyCalls(t.app, other), moneyCalls(second, other)];
    const runs = [];
    for (let i = 0; i < LIMIT; i++) {
      for (const kind of ['transfer', 'stake', 'withdraw'] as const) runs.push(apps[runs.length % 2]![kind](u.token));
    }
    const answers = await Promise.all(runs);
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(LIMIT);
    expect(codes.filter((c) => c === 429)).toHaveLength(2 * LIMIT);
    for (const a of answers.filter((x) => x.statusCode === 429)) {
      expect(a.json()).toEqual(TOO_MANY);
      expect(Number(a.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Still refused on both, whichever route.
    expect((await apps[0]!.stake(u.token)).statusCode).toBe(429);
    expect((await apps[1]!.transfer(u.token)).statusCode).toBe(429);
  });
});
