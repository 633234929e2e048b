import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { auth, createUser, type TestUser } from '../../test/factories';

describe('admin API', () => {
  let t: TestApp;
  let admin: TestUser;
  let user: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t.db, t.ctx.secret, { isAdmin: true, email: 'root@example.test' });
    user = await createUser(t.db, t.ctx.secret, { name: 'Plain Person' });
  });
  afterAll(async () => t.close());

  it('answers 401 without a token and 403 to a user token on every admin route', async () => {
    const paths: { method: 'GET' | 'POST' | 'PUT'; url: string }[] = [
      { method: 'GET', url: '/api/admin/users' },
      { method: 'POST', url: `/api/admin/users/${user.id}/block` },
      { method: 'POST', url: `/api/admin/users/${user.id}/unblock` },
      { method: 'GET', url: '/api/admin/tickets' },
      { method: 'POST', url: '/api/admin/tickets/1/close' },
      { method: 'GET', url: '/api/admin/audit-log' },
    ];
    for (const p of paths) {
      const none = await t.app.inject({ method: p.method, url: p.url, payload: p.method === 'GET' ? undefined : {} });
      expect(none.statusCode, `${p.method} ${p.url} without token`).toBe(401);
      const asUser = await t.app.inject({ method: p.method, url: p.url, headers: auth(user.token), payload: p.method === 'GET' ? undefined : {} });
      expect(asUser.statusCode, `${p.method} ${p.url} as user`).toBe(403);
    }
  });

  it('finds users by e-mail, name or username', async () => {
    const byName = await t.app.inject({ method: 'GET', url: '/api/admin/users?q=plain', headers: auth(admin.token) });
    expect(byName.json().data.data.map((u: { username: string }) => u.username)).toEqual([user.username]);
    const byUsername = await t.app.inject({ method: 'GET', url: `/api/admin/users?q=${user.username.toLowerCase()}`, headers: auth(admin.token) });
    expect(byUsername.json().data.pagination.total).toBe(1);
    const byEmail = await t.app.inject({ method: 'GET', url: '/api/admin/users?q=root@', headers: auth(admin.token) });
    expect(byEmail.json().data.data[0].email).toBe('root@example.test');
  });

  it('blocks a user (sessions revoked, sign-in refused) and unblocks, each in the audit log', async () => {
    const victim = await createUser(t.db, t.ctx.secret);
    const res = await t.app.inject({ method: 'POST', url: `/api/admin/users/${victim.id}/block`, headers: auth(admin.token) });
    expect(res.json()).toMatchObject({ success: true, data: { status: 'blocked' } });
    const after = await t.app.inject({ method: 'GET', url: '/api/support', headers: auth(victim.token) });
    expect(after.statusCode).toBe(401);
    await t.app.inject({ method: 'POST', url: `/api/admin/users/${victim.id}/unblock`, headers: auth(admin.token) });
    const log = await t.app.inject({ method: 'GET', url: '/api/admin/audit-log', headers: auth(admin.token) });
    const actions = log.json().data.data.filter((e: { targetId: string }) => e.targetId === String(victim.id)).map((e: { action: string; admin: string }) => [e.action, e.admin]);
    expect(actions).toEqual([
      ['user.unblock', 'root@example.test'],
      ['user.block', 'root@example.test'],
    ]);
  });

  it('closes a ticket with a remark, audited, and refuses closing it twice', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/api/support', headers: auth(user.token), payload: { type: 'general', message: 'Please help me out' } });
    const id = created.json().data.id as string;
    const close = await t.app.inject({ method: 'POST', url: `/api/admin/tickets/${id}/close`, headers: auth(admin.token), payload: { adminRemark: 'Done, thanks.' } });
    expect(close.json()).toMatchObject({ success: true, data: { status: 'closed', adminRemark: 'Done, thanks.' } });
    const again = await t.app.inject({ method: 'POST', url: `/api/admin/tickets/${id}/close`, headers: auth(admin.token), payload: { adminRemark: 'x' } });
    expect(again.statusCode).toBe(409);
    const empty = await t.app.inject({ method: 'POST', url: `/api/admin/tickets/${id}/close`, headers: auth(admin.token), payload: { adminRemark: '  ' } });
    expect(empty.statusCode).toBe(400);
    const log = await t.app.inject({ method: 'GET', url: '/api/admin/audit-log', headers: auth(admin.token) });
    expect(log.json().data.data[0]).toMatchObject({ action: 'ticket.close', targetId: id, after: expect.objectContaining({ adminRemark: 'Done, thanks.' }) });
  });
});
