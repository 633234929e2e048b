import { afterAll, describe, expect, it } from 'vitest';
import { testDbKind } from '../test/app';
import { freePort, newTarget, seedUsers, startServer, withDb, type ServerProc, type Target } from '../test/faults/procs';

/**
 * Two server processes on one PostgreSQL database. Process B has a user's session in its 2 s
 * session cache; the user logs out on process A (or an admin blocks them): B's next answer to that
 * token, even for an invalid body, is 401 (403 for the block), never the payload rule's 400, and
 * no money moves.
 */
describe.runIf(testDbKind === 'postgres')('a session revoked on another process (two real server processes)', () => {
  let t: Target;
  const servers: ServerProc[] = [];
  afterAll(async () => {
    for (const s of servers) if (s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill('SIGKILL');
    await t?.drop();
  });

  it('answers 401/403 on process B right after the logout/block on process A, whatever the body', async () => {
    t = await newTarget('postgres');
    const [alice, bob, carol] = await seedUsers(t, 3, 1_000);
    const [a, b] = [startServer(t, await freePort()), startServer(t, await freePort())];
    servers.push(a, b);
    await Promise.all([a.ready(), b.ready()]);
    const post = (s: ServerProc, path: string, token: string, body: object) =>
      fetch(`${s.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
    const tooSmall = { username: carol!.username, amount_usd: 1, type: 'deposit' };

    // B caches both sessions (the body breaks a payload rule, the session is live).
    for (const u of [alice!, bob!]) {
      const res = await post(b, '/api/user/fund-transfer', u.token, tooSmall);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe('Minimum transfer amount is 10 USDT');
    }
    // Alice logs out on A; Bob is blocked (as an admin's block writes it), both well within B's 2 s.
    expect((await post(a, '/api/auth/logout', alice!.token, {})).status).toBe(200);
    await withDb(t, (h) => h.db.updateTable('users').set({ status: 'blocked' }).where('id', '=', bob!.id).execute());

    const revoked = await post(b, '/api/user/fund-transfer', alice!.token, tooSmall);
    expect(revoked.status).toBe(401);
    expect(await revoked.json()).toEqual({ success: false, code: 'UNAUTHENTICATED', message: 'Invalid or expired token' });
    const blocked = await post(b, '/api/user/fund-transfer', bob!.token, tooSmall);
    expect(blocked.status).toBe(403);
    expect(await blocked.json()).toEqual({ success: false, code: 'FORBIDDEN', message: 'Your account has been blocked' });
    // A valid body moves nothing either (the transfer's statement checks the session itself).
    expect((await post(b, '/api/user/fund-transfer', alice!.token, { ...tooSmall, amount_usd: 10 })).status).toBe(401);
    const moved = await withDb(t, (h) => h.db.selectFrom('transfers').select('id').execute());
    expect(moved).toEqual([]);
    console.log('[faults] postgres: logout on process A → 401 on process B at once (invalid body), block → 403, no transfer');
  }, 60_000);
});
