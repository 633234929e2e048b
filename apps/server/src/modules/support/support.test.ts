import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPPORT_DISALLOWED_MESSAGE } from '@app/core';
import { createTestApp, type TestApp } from '../../test/app';
import { auth, createUser, type TestUser } from '../../test/factories';
import { closeTicket } from './service';

describe('support tickets', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    alice = await createUser(t.db, t.ctx.secret);
    bob = await createUser(t.db, t.ctx.secret);
  });
  afterAll(async () => t.close());

  const create = (u: TestUser, body: unknown) => t.app.inject({ method: 'POST', url: '/api/support', headers: auth(u.token), payload: body as object });

  it('creates a ticket with trimmed text and lists it for its owner only', async () => {
    const res = await create(alice, { type: ' deposit ', message: '  My deposit has not arrived yet  ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: 'Support ticket created!' });
    const list = await t.app.inject({ method: 'GET', url: '/api/support', headers: auth(alice.token) });
    expect(list.json().data.data).toEqual([
      expect.objectContaining({ type: 'deposit', message: 'My deposit has not arrived yet', status: 'open', adminRemark: null }),
    ]);
    const other = await t.app.inject({ method: 'GET', url: '/api/support', headers: auth(bob.token) });
    expect(other.json().data.data).toEqual([]);
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
    const before = await t.app.inject({ method: 'GET', url: '/api/support', headers: auth(bob.token) });
    const res = await create(bob, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    const after = await t.app.inject({ method: 'GET', url: '/api/support', headers: auth(bob.token) });
    expect(after.json().data.data.length).toBe(before.json().data.data.length);
  });

  it('needs a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/support' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/support', payload: { type: 'general', message: 'hello there world' } })).statusCode).toBe(401);
  });

  it('shows the admin remark once the ticket is closed, and refuses closing twice', async () => {
    const admin = await createUser(t.db, t.ctx.secret, { isAdmin: true });
    const created = (await create(bob, { type: 'staking', message: 'When is ROI credited?' })).json().data;
    const { after } = await closeTicket(t.db, BigInt(created.id), admin.id, 'Every day after 00:05 UTC.');
    expect(after).toMatchObject({ status: 'closed', adminRemark: 'Every day after 00:05 UTC.' });
    const list = await t.app.inject({ method: 'GET', url: '/api/support', headers: auth(bob.token) });
    expect(list.json().data.data[0]).toMatchObject({ id: created.id, status: 'closed', adminRemark: 'Every day after 00:05 UTC.' });
    await expect(closeTicket(t.db, BigInt(created.id), admin.id, 'again')).rejects.toThrow('Ticket is already closed');
  });
});
