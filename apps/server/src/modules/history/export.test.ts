import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createUser, fundDeposit, fundIncome, type TestUser } from '../../test/factories';
import { inject } from '../../test/api';
import { csvExports } from '@app/core/contracts/exports';
import { history, income, staking, transfers as transfersApi } from '@app/core/contracts/money';

/**
 * Issue 32, items 18 and 19: every history can be narrowed to a date range (UTC days, both
 * included) and exported whole as CSV by the server, streamed, with ISO dates, plain numbers, the
 * currency in the header and text cells escaped against formulas; admins export their lists too.
 */
describe('history date ranges and CSV exports', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let admin: TestUser;
  const DAY = 86_400_000;
  const base = Date.parse('2026-03-01T12:00:00Z');

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_AUTH_PER_MIN: '1000' });
    alice = await createUser(t.db, t.ctx.secret, { name: 'Alice' });
    bob = await createUser(t.db, t.ctx.secret, { name: '=HYPERLINK("http://evil.example")', referrerId: alice.id });
    admin = await createUser(t.db, t.ctx.secret, { isAdmin: true });
    // 510 payments, one a day back from base (more than one export batch of 500), the last 3 cancelled.
    await t.db
      .insertInto('payments')
      .values(
        Array.from({ length: 510 }, (_, i) => ({
          user_id: alice.id,
          provider: 'sandbox' as const,
          provider_payment_id: String(8_000_000 + i),
          order_id: `demo-test-${i}`,
          kind: 'demo' as const,
          pay_currency: 'usdtbsc',
          price_amount: BigInt(i + 1) * 1_000_000n + 500_000n,
          pay_amount: BigInt(i + 1) * 1_000_000n + 500_000n,
          pay_address: `0x${String(i).padStart(40, '0')}`,
          window_end: new Date(base - i * DAY + 300_000),
          status: i < 3 ? ('expired' as const) : ('waiting' as const),
          extra: JSON.stringify(i < 3 ? { cancelled_at: new Date(base - i * DAY).toISOString() } : {}),
          created_at: new Date(base - i * DAY),
        })),
      )
      .execute();
    await fundDeposit(t.db, alice.id, 100);
    await fundIncome(t.db, alice.id, 100);
    // A transfer each way would need two verified wallets; one sent to bob is enough for the sign.
    const sent = await inject(t.app, transfersApi.create, { token: alice.token, body: { username: bob.username, amount_usd: 10.5, type: 'deposit' } });
    expect(sent.statusCode).toBe(200);
  });
  afterAll(async () => t.close());

  const lines = (body: string) => body.split('\r\n').filter(Boolean);

  it('narrows /get-history to a date range, both days included, and says which range is bad', async () => {
    const r = await inject(t.app, history.list, { token: alice.token, query: { type: 'transaction', start_date: '2026-02-25', end_date: '2026-03-01' } });
    expect(r.statusCode).toBe(200);
    expect(r.data().pagination.total).toBe(5);
    expect(r.data().data.map((x) => x.createdAt.slice(0, 10))).toEqual(['2026-03-01', '2026-02-28', '2026-02-27', '2026-02-26', '2026-02-25']);
    const open = await inject(t.app, history.list, { token: alice.token, query: { type: 'transaction', start_date: '2026-02-28' } });
    expect(open.data().pagination.total).toBe(2);
    const bad = await inject(t.app, history.list, { token: alice.token, query: { type: 'transaction', start_date: '2026-2-1' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('start_date must be yyyy-mm-dd');
    // The same fields on the stake and income histories.
    expect((await inject(t.app, staking.history, { token: alice.token, query: { start_date: '2026-01-01', end_date: '2026-01-02' } })).statusCode).toBe(200);
    expect((await inject(t.app, income.history, { token: alice.token, query: { income_type: 2, start_date: '2026-01-01' } })).statusCode).toBe(200);
  });

  it('exports the whole deposit history (past one batch), ISO dates, plain numbers, currency in the header', async () => {
    const res = await inject(t.app, csvExports.user, { token: alice.token, query: { list: 'deposits' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="deposits-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    const rows = lines(res.body);
    expect(rows[0]).toBe('Date (UTC),ID,Status,Network,Asked (USDT),Received (USDT),Credited (USDT),Deposit address,Transaction hash');
    expect(rows).toHaveLength(511);
    const [date, , status, network, asked, received] = rows[1]!.split(',');
    expect(date).toBe('2026-03-01T12:00:00.000Z');
    expect([status, network, asked, received]).toEqual(['cancelled', 'Binance Smart Chain', '1.5', '0']);
    expect(rows[510]!.split(',')[4]).toBe('510.5');
    expect(rows[4]!.split(',')[2]).toBe('waiting');
  });

  it('exports within a date range, and a transfer sent as a plain negative number', async () => {
    const ranged = lines(
      (await inject(t.app, csvExports.user, { token: alice.token, query: { list: 'deposits', start_date: '2026-02-27', end_date: '2026-02-28' } })).body,
    );
    expect(ranged.slice(1).map((l) => l.slice(0, 10))).toEqual(['2026-02-28', '2026-02-27']);
    const transfers = lines((await inject(t.app, csvExports.user, { token: alice.token, query: { list: 'transfers' } })).body);
    expect(transfers[0]).toBe('Date (UTC),ID,Direction,Counterparty,Wallet,Amount (USDT)');
    expect(transfers[1]!.split(',').slice(2)).toEqual(['sent', bob.username, 'deposit', '-10.5']);
    const theirs = lines((await inject(t.app, csvExports.user, { token: bob.token, query: { list: 'transfers' } })).body);
    expect(theirs[1]!.split(',').slice(2)).toEqual(['received', alice.username, 'deposit', '10.5']);
  });

  it("escapes text that would run as a formula (a downline member's name in the team export)", async () => {
    const team = lines((await inject(t.app, csvExports.user, { token: alice.token, query: { list: 'team' } })).body);
    expect(team[0]).toBe('Joined (UTC),Username,Name,Status');
    expect(team[1]).toContain(`,"'=HYPERLINK(""http://evil.example"")",`);
  });

  it('exports the other histories with their headers; a bad list is a 400 with a message', async () => {
    for (const [query, header] of [
      [{ list: 'withdrawals' }, 'Date (UTC),ID,Status,Amount (USDT),Fee (USDT),Sent to wallet (USDT),Network,Wallet address,Transaction hash'],
      [{ list: 'income', income_type: '1' }, 'Date (UTC),For date,ID,Type,Amount (USDT),Note'],
      [{ list: 'stakes' }, 'Date (UTC),ID,Status,Amount (USDT),Start date,Days,Earned (USDT),Cap (USDT)'],
    ] as const) {
      const res = await inject(t.app, csvExports.user, { token: alice.token, query });
      expect(res.statusCode, query.list).toBe(200);
      expect(lines(res.body)[0]).toBe(header);
    }
    const bad = await inject(t.app, csvExports.user, { token: alice.token, query: { list: 'everything' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false, message: 'list must be one of deposits, withdrawals, transfers, income, stakes, team' });
    expect((await inject(t.app, csvExports.user, { query: { list: 'deposits' } })).statusCode).toBe(401);
  });

  it("lets an admin export a whole list with the list's own filters; a user cannot", async () => {
    const users = await inject(t.app, csvExports.admin, { token: admin.token, query: { list: 'users' } });
    expect(users.statusCode).toBe(200);
    expect(lines(users.body)[0]).toBe('Joined (UTC),ID,Username,Name,Email,Status,Verified,Admin,Level');
    expect(lines(users.body).length).toBeGreaterThanOrEqual(4);
    const payments = lines((await inject(t.app, csvExports.admin, { token: admin.token, query: { list: 'payments', status: 'expired' } })).body);
    expect(payments).toHaveLength(4);
    expect(payments.slice(1).every((l) => l.split(',')[5] === 'expired')).toBe(true);
    const bad = await inject(t.app, csvExports.admin, { token: admin.token, query: { list: 'withdrawals', status: 'lost' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false, message: 'status must be pending, approved, sent, completed or rejected' });
    expect((await inject(t.app, csvExports.admin, { token: alice.token, query: { list: 'users' } })).statusCode).toBe(403);
  });

  it('limits exports to 30 a minute per address (each reads a whole history)', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 31; i++) codes.push((await inject(t.app, csvExports.user, { token: bob.token, query: { list: 'team' } })).statusCode);
    expect(codes).toContain(429);
    const refused = await inject(t.app, csvExports.user, { token: bob.token, query: { list: 'team' } });
    expect(refused.json()).toMatchObject({ success: false, message: 'Too many requests, please try again later.' });
  });
});
