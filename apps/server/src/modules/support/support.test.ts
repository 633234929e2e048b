import { beforeAll, describe, expect, it } from 'vitest';
import { SUPPORT_DISALLOWED_MESSAGE } from '@app/core';
import { useTestApp } from '../../test/app';
import { createUser, type TestUser } from '../../test/factories';
import { inject } from '../../test/api';
import { admin as adminApi } from '@app/core/contracts/admin';
import { support } from '@app/core/contracts/support';
import { closeTicket } from './service';

describe('support tickets', () => {
  const t = useTestApp();
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    alice = await createUser(t.db, t.ctx.secret);
    bob = await createUser(t.db, t.ctx.secret);
  });

  const create = (u: TestUser, body: Record<string, unknown>) => inject(t.app, support.create, { token: u.token, body });

  it('creates a ticket with trimmed text and lists it for its owner only', async () => {
    const res = await create(alice, { type: ' deposit ', message: '  My deposit has not arrived yet  ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: 'Support ticket created!' });
    const list = await inject(t.app, support.list, { token: alice.token });
    expect(list.data().data).toEqual([
      expect.objectContaining({ type: 'deposit', message: 'My deposit has not arrived yet', status: 'open', adminRemark: null }),
    ]);
    expect(list.data().pagination).toEqual({ total: 1, page: 1, perPage: 10 });
    const other = await inject(t.app, support.list, { token: bob.token });
    expect(other.data()).toEqual({ data: [], pagination: { total: 0, page: 1, perPage: 10 } });
  });

  it.each([
    [{ message: 'hello there world' }, 'Subject is required'],
    [{ type: 'billing', message: 'hello there world' }, 'Please select a subject'],
    [{ type: '  ', message: 'hello there world' }, 'Subject cannot be empty.'],
    [{ type: 'general' }, 'Message is required'],
    [{ type: 'general', message: 'short' }, 'Message must be at least 10 characters long'],
    [{ type: 'general', message: 'y'.repeat(1001) }, 'Message cannot exceed 1000 characters'],
    [{ type: 'general', message: 'give me $100 now please' }, SUPPORT_DISALLOWED_MESSAGE],
    [{ type: 'general', message: '<script>alert(1)</script>' }, SUPPORT_DISALLOWED_MESSAGE],
    [{ type: 'general', message: 12345678901 }, 'Message is required'],
  ])('refuses %j with the spec message', async (body, message) => {
    const before = await inject(t.app, support.list, { token: bob.token });
    const res = await create(bob, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    const after = await inject(t.app, support.list, { token: bob.token });
    expect(after.data().pagination.total).toBe(before.data().pagination.total);
  });

  it("pages the caller's tickets newest first with total, page and perPage, reaching the oldest one", async () => {
    const carol = await createUser(t.db, t.ctx.secret);
    const base = Date.parse('2025-01-01T00:00:00Z');
    // 205 tickets (more than the old silent cap of 200), ticket #n created n minutes after base; one ticket of another user.
    await t.db
      .insertInto('support_tickets')
      .values(
        Array.from({ length: 205 }, (_, i) => ({
          user_id: carol.id,
          type: 'general',
          message: `Ticket number ${i + 1}`,
          created_at: new Date(base + (i + 1) * 60_000),
        })),
      )
      .execute();
    await t.db
      .insertInto('support_tickets')
      .values({ user_id: alice.id, type: 'general', message: 'Not carol', created_at: new Date(base + 999 * 60_000) })
      .execute();
    const list = (query?: { page?: number; per_page?: number }) => inject(t.app, support.list, { token: carol.token, query });
    const messages = (body: { data: { data: { message: string }[] } }) => body.data.data.map((r) => r.message);
    const nums = (...n: number[]) => n.map((i) => `Ticket number ${i}`);
    const range = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, i) => from - i);

    const first = (await list()).json();
    expect(first.success).toBe(true);
    expect(first.data.pagination).toEqual({ total: 205, page: 1, perPage: 10 });
    expect(messages(first)).toEqual(nums(...range(205, 196)));

    const p2 = (await list({ page: 2, per_page: 10 })).json();
    expect(p2.data.pagination).toEqual({ total: 205, page: 2, perPage: 10 });
    expect(messages(p2)).toEqual(nums(...range(195, 186)));

    const one = (await list({ page: 1, per_page: 1 })).json();
    expect(one.data.pagination).toEqual({ total: 205, page: 1, perPage: 1 });
    expect(messages(one)).toEqual(nums(205));

    // per_page is capped at 100: the third page of 100 holds the 5 oldest tickets, oldest last.
    const p3 = (await list({ page: 3, per_page: 100 })).json();
    expect(p3.data.pagination).toEqual({ total: 205, page: 3, perPage: 100 });
    expect(messages(p3)).toEqual(nums(5, 4, 3, 2, 1));
    expect((await list({ per_page: 100 })).json().data.data).toHaveLength(100);

    const beyond = (await list({ page: 30 })).json();
    expect(beyond.data).toEqual({ data: [], pagination: { total: 205, page: 30, perPage: 10 } });
  });

  it.each([
    [{ per_page: '101' }, 'per_page', 'Must be at most 100'],
    [{ per_page: '0' }, 'per_page', 'Must be at least 1'],
    [{ per_page: 'abc' }, 'per_page', 'Must be a whole number'],
    [{ per_page: '2.5' }, 'per_page', 'Must be a whole number'],
    [{ page: '0' }, 'page', 'Must be at least 1'],
    [{ page: '-1' }, 'page', 'Must be at least 1'],
    [{ page: 'x' }, 'page', 'Must be a whole number'],
  ])('refuses bad paging %j with 400 and a message', async (query, field, message) => {
    const res = await inject(t.app, support.list, { token: alice.token, query });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, code: 'VALIDATION', message, errors: { [field]: message } });
  });

  it('answers an empty first page with its pagination', async () => {
    const dave = await createUser(t.db, t.ctx.secret);
    const res = await inject(t.app, support.list, { token: dave.token });
    expect(res.json()).toEqual({ success: true, data: { data: [], pagination: { total: 0, page: 1, perPage: 10 } } });
  });

  it('pages the admin ticket queue the same way: total, page, perPage, newest first, per_page at most 100', async () => {
    const admin = await createUser(t.db, t.ctx.secret, { isAdmin: true });
    const queue = (query?: { page?: number; per_page?: number }) => inject(t.app, adminApi.tickets, { token: admin.token, query });
    const count = await t.db
      .selectFrom('support_tickets')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const total = Number(count.n);
    expect(total).toBeGreaterThan(200);
    const first = (await queue()).data();
    expect(first.pagination).toEqual({ total, page: 1, perPage: 10 });
    const all = (await queue({ per_page: 100 })).data().data;
    expect(all).toHaveLength(100);
    const p2 = (await queue({ page: 2, per_page: 5 })).data();
    expect(p2.pagination).toEqual({ total, page: 2, perPage: 5 });
    expect(p2.data.map((r) => r.id)).toEqual(all.slice(5, 10).map((r) => r.id));
    expect([...all].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || Number(b.id) - Number(a.id)).map((r) => r.id)).toEqual(all.map((r) => r.id));
    const bad = await queue({ per_page: 101 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ success: false, code: 'VALIDATION', message: 'Must be at most 100', errors: { per_page: 'Must be at most 100' } });
  });

  it('needs a token', async () => {
    expect((await inject(t.app, support.list)).statusCode).toBe(401);
    expect((await inject(t.app, support.create, { body: { type: 'general', message: 'hello there world' } })).statusCode).toBe(401);
  });

  it('shows the admin remark once the ticket is closed, and refuses closing twice', async () => {
    const admin = await createUser(t.db, t.ctx.secret, { isAdmin: true });
    const created = (await create(bob, { type: 'staking', message: 'When is ROI credited?' })).data();
    const { after } = await closeTicket(t.db, BigInt(created.id), admin.id, 'Every day after 00:05 UTC.');
    expect(after).toMatchObject({ status: 'closed', adminRemark: 'Every day after 00:05 UTC.' });
    const list = await inject(t.app, support.list, { token: bob.token });
    expect(list.data().data[0]).toMatchObject({ id: created.id, status: 'closed', adminRemark: 'Every day after 00:05 UTC.' });
    await expect(closeTicket(t.db, BigInt(created.id), admin.id, 'again')).rejects.toThrow('Ticket is already closed');
  });
});
