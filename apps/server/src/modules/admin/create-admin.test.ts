import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { bootstrapAdmin, createAdmin } from './create-admin';
import { inject } from '../../test/api';
import { auth as authApi } from '@app/core/contracts/auth';

describe('admin creation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_AUTH_PER_MIN: '1000' });
  });
  afterAll(async () => t.close());

  const login = (email: string, password: string) => inject(t.app, authApi.login, { body: { email, password } });

  it('creates an admin from ADMIN_EMAIL/ADMIN_PASSWORD only when none exists, and it can sign in', async () => {
    expect(await bootstrapAdmin(t.db, undefined, 'x')).toBe(false);
    expect(await bootstrapAdmin(t.db, 'root@example.test', 'Root-Password-1')).toBe(true);
    expect(await bootstrapAdmin(t.db, 'second@example.test', 'Root-Password-2')).toBe(false);
    const res = await login('root@example.test', 'Root-Password-1');
    expect(res.json()).toMatchObject({ success: true, data: { is_admin: true } });
    expect((await login('second@example.test', 'Root-Password-2')).statusCode).toBe(401);
  });

  it('admin:create promotes an existing account and refuses a weak password', async () => {
    await createAdmin(t.db, 'ops@example.test', 'Operator-123');
    const again = await createAdmin(t.db, 'OPS@example.test', 'Operator-456');
    expect(again.created).toBe(false);
    expect((await login('ops@example.test', 'Operator-456')).json().data.is_admin).toBe(true);
    await expect(createAdmin(t.db, 'weak@example.test', 'short')).rejects.toThrow('Admin password must be at least 8 characters');
  });
});
