import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { inject } from '../../test/api';
import { auth as authApi, SOCIAL_PROVIDER_NAMES, socialContracts } from '@app/core/contracts/auth';
import { user as userApi } from '@app/core/contracts/user';
import { hashPassword } from '../auth/password';
import * as team from '../team/service';
import { followProvider, startTestOAuth2Server, startTestProvider, type TestAccount } from '../../test/social-provider';
import { countRows } from '../../test/count-rows';
import { fundDeposit } from '../../test/factories';
import * as ledger from '../ledger/service';
import { usd } from '@app/core';

type Provider = (typeof SOCIAL_PROVIDER_NAMES)[number];

const PUBLIC = 'http://localhost:3000';
const CALLBACK = (p: string) => `${PUBLIC}/api/auth/${p}/callback`;
const FAILURE = (p: string) => `${PUBLIC}/signup?error=1&provider=${p}`;

describe('social sign-in', () => {
  let t: TestApp;
  let op: Awaited<ReturnType<typeof startTestProvider>>;
  let fb: Awaited<ReturnType<typeof startTestOAuth2Server>>;
  let ig: Awaited<ReturnType<typeof startTestOAuth2Server>>;
  let sponsor: { id: bigint; username: string };
  let n = 0;

  const account = (over: Partial<TestAccount> = {}): TestAccount => {
    n += 1;
    return { sub: `sub-${n}-${randomBytes(3).toString('hex')}`, email: `social${n}@example.com`, email_verified: true, name: `Social User ${n}`, ...over };
  };

  async function counts() {
    const one = (table: 'users' | 'social_identities' | 'social_signups' | 'sessions') => countRows(t.db, table);
    return { users: await one('users'), identities: await one('social_identities'), signups: await one('social_signups'), sessions: await one('sessions') };
  }

  /** The browser-binding cookie each start set, by its state: what the browser that started that flow sends back. */
  const started = new Map<string, string>();

  async function startFlow(provider: Provider = 'google', ref?: string) {
    const res = await inject(t.app, socialContracts[provider].start, { query: ref ? { ref } : undefined });
    expect(res.statusCode).toBe(302);
    const url = String(res.headers.location);
    const setCookie = setCookieOf(res, 'social_state');
    const cookie = setCookie.split(';')[0]!;
    const state = new URL(url).searchParams.get('state');
    if (state && cookie) started.set(state, cookie);
    return { url, setCookie, cookie };
  }

  async function begin(provider: Provider = 'google', ref?: string): Promise<string> {
    return (await startFlow(provider, ref)).url;
  }

  /** Our callback, by default with the cookie of the start that made this state ('' sends none). */
  const hitCallback = (url: URL, cookie = started.get(url.searchParams.get('state') ?? '') ?? '') =>
    t.app.inject({ method: 'GET', url: url.pathname + url.search, headers: cookie ? { cookie } : {} });

  /** The whole browser trip: our start route → the provider's authorize + interaction → our callback. */
  async function signIn(who: TestAccount, ref?: string, provider: Provider = 'google') {
    op.signInAs(who);
    const cb = await followProvider(await begin(provider, ref), CALLBACK(provider));
    const res = await hitCallback(cb);
    expect(res.statusCode).toBe(302);
    return { res, cb, location: new URL(String(res.headers.location)) };
  }

  /** The Set-Cookie line for one cookie name (a callback may set the signup cookie and clear the state cookie). */
  const setCookieOf = (res: { headers: Record<string, unknown> }, name: string) =>
    [res.headers['set-cookie'] ?? []]
      .flat()
      .map(String)
      .find((c) => c.startsWith(`${name}=`)) ?? '';

  async function me(token: string) {
    const res = await inject(t.app, userApi.profile, { token });
    expect(res.statusCode).toBe(200);
    return res.data();
  }

  async function passwordUser(email: string, username: string, verified = true) {
    const u = await t.db
      .insertInto('users')
      .values({ name: 'Password User', email, username, password_hash: await hashPassword('Secret123!'), email_verified_at: verified ? new Date() : null })
      .returning(['id', 'username'])
      .executeTakeFirstOrThrow();
    await team.onUserCreated(t.db, u.id, null);
    return u;
  }

  beforeAll(async () => {
    op = await startTestProvider({ clientId: 'usdt-web', clientSecret: 'test-client-secret', redirectUris: [CALLBACK('google')] });
    fb = await startTestOAuth2Server({ clientId: 'fb-app', clientSecret: 'fb-secret' });
    ig = await startTestOAuth2Server({ clientId: 'ig-app', clientSecret: 'ig-secret' });
    t = await createTestApp({
      RATE_LIMIT_AUTH_PER_MIN: '1000',
      PUBLIC_URL: PUBLIC,
      GOOGLE_CLIENT_ID: 'usdt-web',
      GOOGLE_CLIENT_SECRET: 'test-client-secret',
      GOOGLE_ISSUER_URL: op.issuer,
      // Facebook and Instagram are plain OAuth 2: each pointed at its own local authorization server.
      FACEBOOK_CLIENT_ID: 'fb-app',
      FACEBOOK_CLIENT_SECRET: 'fb-secret',
      FACEBOOK_AUTH_URL: `${fb.base}/authorize`,
      FACEBOOK_TOKEN_URL: `${fb.base}/token`,
      FACEBOOK_USERINFO_URL: `${fb.base}/me?fields=id,name,email`,
      INSTAGRAM_CLIENT_ID: 'ig-app',
      INSTAGRAM_CLIENT_SECRET: 'ig-secret',
      INSTAGRAM_AUTH_URL: `${ig.base}/authorize`,
      INSTAGRAM_TOKEN_URL: `${ig.base}/token`,
      INSTAGRAM_USERINFO_URL: `${ig.base}/me?fields=id,username`,
    });
    sponsor = await passwordUser('sponsor@example.com', 'SPONSOR01');
  });
  afterAll(async () => {
    await t?.close();
    await op?.close();
    await fb?.close();
    await ig?.close();
  });
  beforeEach(() => op.signInAs(account()));

  it('starts with a redirect to the provider carrying state, nonce and an S256 PKCE challenge, stored hashed server-side', async () => {
    const url = new URL(await begin('google', 'sponsor01'));
    expect(url.origin + url.pathname).toBe(`${op.issuer}/auth`);
    const q = url.searchParams;
    expect(q.get('client_id')).toBe('usdt-web');
    expect(q.get('redirect_uri')).toBe(CALLBACK('google'));
    expect(q.get('scope')).toBe('openid email profile');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(q.get('nonce')!.length).toBeGreaterThanOrEqual(32);
    const state = q.get('state')!;
    expect(state.length).toBeGreaterThanOrEqual(32);
    const rows = await t.db.selectFrom('social_logins').selectAll().execute();
    const row = rows.at(-1)!;
    expect(row.state_hash).not.toBe(state);
    expect(rows.some((r) => r.state_hash === state || r.code_verifier === q.get('code_challenge'))).toBe(false);
    expect(row).toMatchObject({ provider: 'google', nonce: q.get('nonce'), ref: 'SPONSOR01', used: false });
    expect(new Date(row.expires_at).getTime() - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(new Date(row.expires_at).getTime() - Date.now()).toBeLessThanOrEqual(10 * 60_000);
  });

  it('answers 404 for a provider that is not configured, and its callback only fails', async () => {
    // The routes read the configuration on every request: drop each provider's secret for a moment.
    const o = t.ctx.config.oauth;
    const saved = [o.google.clientSecret, o.facebook.clientSecret, o.instagram.clientSecret];
    o.google.clientSecret = o.facebook.clientSecret = o.instagram.clientSecret = undefined;
    try {
      for (const p of SOCIAL_PROVIDER_NAMES) {
        const res = await inject(t.app, socialContracts[p].start);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ success: false, message: 'Sign-in provider not configured' });
      }
      const cb = await inject(t.app, authApi.googleCallback, { query: { state: 'x', code: 'y' } });
      expect(cb.headers.location).toBe(FAILURE('google'));
    } finally {
      [o.google.clientSecret, o.facebook.clientSecret, o.instagram.clientSecret] = saved;
    }
  });

  it('creates a verified, password-less account linked to the referrer for a new user with a valid ref, and signs in', async () => {
    const who = account();
    const before = await counts();
    const { location } = await signIn(who, 'SPONSOR01');
    expect(location.origin + location.pathname).toBe(`${PUBLIC}/signup`);
    expect(location.searchParams.get('provider')).toBe('google');
    const token = location.searchParams.get('token')!;
    expect(token).toBeTruthy();
    const profile = await me(token);
    expect(profile).toMatchObject({ email: who.email, name: who.name });
    const user = await t.db.selectFrom('users').selectAll().where('username', '=', profile.username).executeTakeFirstOrThrow();
    expect(user.referrer_id).toBe(sponsor.id);
    expect(user.password_hash).toBeNull();
    expect(user.email_verified_at).not.toBeNull();
    const ident = await t.db.selectFrom('social_identities').selectAll().where('user_id', '=', user.id).execute();
    expect(ident).toMatchObject([{ provider: 'google', subject: who.sub }]);
    const after = await counts();
    expect(after.users).toBe(before.users + 1);
    expect(after.signups).toBe(before.signups);
    const stats = await sql<{ directs: number }>`select directs from team_stats where user_id = ${sponsor.id}`.execute(t.db);
    expect(Number(stats.rows[0]!.directs)).toBeGreaterThanOrEqual(1);
  });

  it('sends a new user without ref to the referral step with an HttpOnly cookie, and update-referral finishes only that sign-up', async () => {
    const who = account();
    const before = await counts();
    const { res, location } = await signIn(who);
    expect(location.searchParams.get('requiresReferral')).toBe('true');
    expect(location.searchParams.get('provider')).toBe('google');
    expect(location.searchParams.has('token')).toBe(false);
    const user = JSON.parse(location.searchParams.get('user')!) as { username: string; name: string; email: string };
    expect(user).toMatchObject({ name: who.name, email: who.email });
    expect(user.username).toMatch(/^[A-Z0-9]{9}$/);
    const setCookie = setCookieOf(res, 'social_signup');
    expect(setCookie).toMatch(/^social_signup=[\w-]+; Max-Age=600; Path=\/api\/auth; HttpOnly; SameSite=Lax/);
    const cookie = setCookie.split(';')[0]!;
    // Not a user yet.
    expect((await counts()).users).toBe(before.users);

    const update = (body: object, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: '/api/auth/update-referral', payload: body, headers });
    const noCookie = await update({ username: user.username });
    expect(noCookie.statusCode).toBe(400);
    expect(noCookie.json()).toMatchObject({ success: false, message: 'Invalid or expired sign-up session' });
    expect(noCookie.json().data).toBeUndefined();

    const otherName = await update({ username: sponsor.username }, { cookie });
    expect(otherName.statusCode).toBe(400);
    expect(otherName.json().message).toBe('Invalid or expired sign-up session');

    const badRef = await update({ username: user.username, referral_id: 'ZZZZZZZZZ' }, { cookie });
    expect(badRef.statusCode).toBe(400);
    expect(badRef.json()).toMatchObject({ message: 'Invalid referral ID', errors: { referral_id: 'Invalid referral ID' } });
    expect((await counts()).users).toBe(before.users);

    const done = await update({ username: user.username.toLowerCase(), referral_id: 'sponsor01' }, { cookie: `theme=dark; ${cookie}` });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ success: true, message: 'Referral updated successfully', data: { is_admin: false } });
    expect(String(done.headers['set-cookie'])).toContain('social_signup=; Max-Age=0');
    const profile = await me(done.json().data.token);
    expect(profile).toMatchObject({ username: user.username, email: who.email, name: who.name });
    const created = await t.db.selectFrom('users').selectAll().where('username', '=', user.username).executeTakeFirstOrThrow();
    expect(created.referrer_id).toBe(sponsor.id);
    expect(created.password_hash).toBeNull();

    const again = await update({ username: user.username }, { cookie });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('Invalid or expired sign-up session');
    expect(again.json().data).toBeUndefined();
    expect((await counts()).users).toBe(before.users + 1);

    // The same provider account later signs straight in.
    const back = await signIn(who);
    expect((await me(back.location.searchParams.get('token')!)).username).toBe(user.username);
  });

  it('finishes a pending sign-up without a referral ID too', async () => {
    const { res, location } = await signIn(account());
    const user = JSON.parse(location.searchParams.get('user')!) as { username: string };
    const done = await t.app.inject({
      method: 'POST',
      url: '/api/auth/update-referral',
      payload: { username: user.username },
      headers: { cookie: setCookieOf(res, 'social_signup').split(';')[0]! },
    });
    expect(done.statusCode).toBe(200);
    const created = await t.db.selectFrom('users').selectAll().where('username', '=', user.username).executeTakeFirstOrThrow();
    expect(created.referrer_id).toBeNull();
  });

  it('signs a returning user in to the same account without creating anything', async () => {
    const who = account();
    const first = await signIn(who, 'SPONSOR01');
    const id1 = (await me(first.location.searchParams.get('token')!)).username;
    const before = await counts();
    const second = await signIn({ ...who, name: 'Renamed' });
    const token = second.location.searchParams.get('token')!;
    expect(second.location.searchParams.get('requiresReferral')).toBeNull();
    expect((await me(token)).username).toBe(id1);
    const after = await counts();
    expect(after).toEqual({ ...before, sessions: before.sessions + 1 });
    // A sign-in like any other: the browser gets the account's device token (issue 46).
    expect(setCookieOf(second.res, 'device')).toMatch(/^device=d1\.[^;]+; Max-Age=\d+; Path=\/api; HttpOnly; SameSite=Strict$/); // no Secure: PUBLIC is http
  });

  it('refuses to link an e-mail registered with a password when the provider does not verify it, creating nothing', async () => {
    const pw = await passwordUser('Owner@Example.com', 'OWNER0001');
    const before = await counts();
    const { location } = await signIn(account({ email: 'owner@example.com', email_verified: false }), 'SPONSOR01');
    expect(location.href).toBe(FAILURE('google'));
    expect(await counts()).toEqual(before);
    // update-referral cannot reach the password account either.
    const res = await inject(t.app, authApi.updateReferral, { body: { username: pw.username } });
    expect(res.statusCode).toBe(400);
    expect(res.data()).toBeUndefined();
  });

  it('links a verified password account when the provider says the e-mail is verified, and signs in to that account', async () => {
    const pw = await passwordUser('linked@example.com', 'LINKED001', true);
    const before = await counts();
    const { location } = await signIn(account({ email: 'LINKED@example.com', email_verified: true }));
    const token = location.searchParams.get('token')!;
    expect((await me(token)).username).toBe(pw.username);
    const after = await counts();
    expect(after.users).toBe(before.users);
    expect(after.identities).toBe(before.identities + 1);
    const user = await t.db.selectFrom('users').selectAll().where('id', '=', pw.id).executeTakeFirstOrThrow();
    expect(user.password_hash).not.toBeNull();
  });

  // Finding 2 (issue 10): an attacker pre-registered the victim's e-mail with their own password and
  // never verified. The victim's Google sign-in used to link that account, verified, keeping the
  // attacker's password: the attacker's password login then opened the victim's account.
  it('replaces an unverified password account instead of adopting its password, name or referrer', async () => {
    const victimEmail = 'victim@example.com';
    const reg = await inject(t.app, authApi.register, { body: { name: 'Attacker', email: victimEmail, password: 'Attack123', referral_id: 'SPONSOR01' } });
    expect(reg.statusCode).toBe(200);
    const attackerId = (await t.db.selectFrom('users').select('id').where('email', '=', victimEmail).executeTakeFirstOrThrow()).id;
    const sponsorStats = async () =>
      await t.db.selectFrom('team_stats').select(['directs', 'network_users']).where('user_id', '=', sponsor.id).executeTakeFirstOrThrow();
    const statsBefore = await sponsorStats();

    const { location } = await signIn(account({ email: victimEmail, email_verified: true, name: 'Real Owner' }), 'SPONSOR01');
    const token = location.searchParams.get('token')!;
    const profile = await me(token);
    expect(profile.email).toBe(victimEmail);
    expect(profile.name).toBe('Real Owner');
    // The attacker's account is gone, and so is its place in the sponsor's team (the owner's new one counts once).
    expect(await t.db.selectFrom('users').select('id').where('id', '=', attackerId).executeTakeFirst()).toBeUndefined();
    expect(await sponsorStats()).toEqual(statsBefore);
    // The attacker's password opens nothing.
    const attack = await inject(t.app, authApi.login, { body: { email: victimEmail, password: 'Attack123' } });
    expect(attack.statusCode).toBe(401);
    expect(attack.data()).toBeUndefined();
  });

  // The mailbox wins for 10 USDT (attack report): the squatter's account received a transfer from
  // the attacker (its sponsor), so it was never replaced: the owner's Google sign-in got it, with the
  // attacker as sponsor and the squatter's name. Failed before the fix (name 'Attacker', sponsor kept).
  it("replaces an unverified password account that holds money: the money back at its sender, not the squatter's sponsor or name but the provider's", async () => {
    const victimEmail = 'victim-money@example.com';
    const reg = await inject(t.app, authApi.register, { body: { name: 'Attacker', email: victimEmail, password: 'Attack123', referral_id: 'SPONSOR01' } });
    expect(reg.statusCode).toBe(200);
    const squatId = (await t.db.selectFrom('users').select('id').where('email', '=', victimEmail).executeTakeFirstOrThrow()).id;
    // A transfer received before the fix (the route refuses one now), through the ledger's one posting implementation.
    await fundDeposit(t.db, sponsor.id, 10);
    await t.db.transaction().execute(async (tx) => {
      const { id } = await tx
        .insertInto('transfers')
        .values({ sender_id: sponsor.id, receiver_id: squatId, type: 'deposit', amount: usd(10) })
        .returning('id')
        .executeTakeFirstOrThrow();
      await ledger.post(tx, {
        key: `transfer:${id}`,
        kind: 'transfer',
        userId: sponsor.id,
        postings: [
          { account: ledger.userAccount(sponsor.id, 'deposit'), amount: -usd(10) },
          { account: ledger.userAccount(squatId, 'deposit'), amount: usd(10) },
        ],
      });
    });

    // The owner signs in through a referral link of their own choosing.
    const ownersSponsor = await passwordUser('owners-sponsor@example.com', 'OWNSPON01');
    const { location } = await signIn(account({ email: victimEmail, email_verified: true, name: 'Real Owner' }), 'OWNSPON01');
    const token = location.searchParams.get('token')!;
    const profile = await me(token);
    expect(profile).toMatchObject({ email: victimEmail, name: 'Real Owner', referral_id: 'OWNSPON01' });
    const row = await t.db.selectFrom('users').select(['id', 'referrer_id', 'password_hash']).where('email', '=', victimEmail).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ referrer_id: ownersSponsor.id, password_hash: null });
    expect(await t.db.selectFrom('users').select('id').where('id', '=', squatId).where('referrer_id', '=', sponsor.id).execute()).toEqual([]);
    expect(row.id).not.toBe(squatId);
    expect(await ledger.getBalances(t.db, sponsor.id)).toMatchObject({ deposit: usd(10) });
    expect(await ledger.getBalances(t.db, row.id)).toEqual({ deposit: 0n, income: 0n });
    expect((await ledger.verify(t.db)).ok).toBe(true);
    expect((await inject(t.app, authApi.login, { body: { email: victimEmail, password: 'Attack123' } })).statusCode).toBe(401);
  });

  it('refuses a callback with an unknown state, creating nothing', async () => {
    const who = account();
    op.signInAs(who);
    const cb = await followProvider(await begin(), CALLBACK('google'));
    const before = await counts();
    const forged = new URL(cb);
    forged.searchParams.set('state', randomBytes(32).toString('base64url'));
    const res = await hitCallback(forged);
    expect(res.headers.location).toBe(FAILURE('google'));
    const none = await hitCallback(new URL(`${CALLBACK('google')}?code=abc`));
    expect(none.headers.location).toBe(FAILURE('google'));
    expect(await counts()).toEqual(before);
  });

  // Login CSRF (external review, HIGH): the state was checked only against its server-side row, so
  // anyone holding a callback URL (an attacker who started the flow and stopped before the callback)
  // could make a victim's browser open it and be signed in to the attacker's account.
  it('sets a short-lived HttpOnly SameSite=Lax cookie on the start redirect that binds the state to that browser', async () => {
    for (const p of SOCIAL_PROVIDER_NAMES) {
      const { setCookie } = await startFlow(p);
      expect(setCookie).toMatch(new RegExp(`^social_state=[0-9a-f]{64}; Max-Age=600; Path=/api/auth/${p}/callback; HttpOnly; SameSite=Lax$`));
    }
  });

  it('refuses a callback without the start cookie or with the cookie of another start (login CSRF), consuming nothing, then signs in with the right one', async () => {
    for (const p of SOCIAL_PROVIDER_NAMES) {
      // The attacker starts a flow, completes the provider step as himself and keeps the callback URL.
      if (p === 'google') op.signInAs(account());
      else (p === 'facebook' ? fb : ig).setProfile({ id: `${p}${randomBytes(4).toString('hex')}`, name: `Attacker ${p}`, username: `att_${p}` });
      const attacker = await startFlow(p, 'SPONSOR01');
      const cb = await followProvider(attacker.url, CALLBACK(p));
      // The victim's browser started a flow of its own (its cookie is another start's), or none at all.
      const victim = await startFlow(p);
      const before = await counts();
      for (const cookie of ['', victim.cookie, `social_state=${cb.searchParams.get('state')}`, 'social_state=']) {
        const res = await hitCallback(cb, cookie);
        expect(res.statusCode).toBe(302);
        // The same refusal as an unknown state: back to the failure page, no token, no pending sign-up.
        expect(res.headers.location).toBe(FAILURE(p));
        expect(res.headers['set-cookie']).toBeUndefined();
        expect(await counts()).toEqual(before);
      }
      // Nothing was consumed: the browser that started the flow still completes it, and the cookie is cleared.
      const ok = await hitCallback(cb, attacker.cookie);
      const location = new URL(String(ok.headers.location));
      expect(location.searchParams.get('token')).toBeTruthy();
      expect(setCookieOf(ok, 'social_state')).toBe(`social_state=; Max-Age=0; Path=/api/auth/${p}/callback; HttpOnly; SameSite=Lax`);
      expect((await counts()).sessions).toBe(before.sessions + 1);
    }
  });

  it('refuses a replayed callback and a replayed code, creating nothing', async () => {
    const who = account();
    const first = await signIn(who, 'SPONSOR01');
    expect(first.location.searchParams.get('token')).toBeTruthy();
    const before = await counts();
    // The same answer again: the state is single use.
    const replay = await hitCallback(first.cb);
    expect(replay.headers.location).toBe(FAILURE('google'));
    // The used code under a fresh, valid state: the provider refuses it (and the PKCE verifier differs).
    op.signInAs(who);
    const fresh = await followProvider(await begin(), CALLBACK('google'));
    const mixed = new URL(fresh);
    mixed.searchParams.set('code', first.cb.searchParams.get('code')!);
    const res = await hitCallback(mixed);
    expect(res.headers.location).toBe(FAILURE('google'));
    expect(await counts()).toEqual(before);
  });

  it('refuses an ID token whose nonce is not the one stored for the state, creating nothing', async () => {
    const who = account();
    op.signInAs(who);
    const authorize = new URL(await begin('google', 'SPONSOR01'));
    authorize.searchParams.set('nonce', randomBytes(32).toString('base64url'));
    const cb = await followProvider(authorize.href, CALLBACK('google'));
    const before = await counts();
    const res = await hitCallback(cb);
    expect(res.headers.location).toBe(FAILURE('google'));
    expect(await counts()).toEqual(before);
  });

  it('refuses a code obtained with another PKCE challenge, creating nothing', async () => {
    op.signInAs(account());
    const authorize = new URL(await begin('google', 'SPONSOR01'));
    authorize.searchParams.set('code_challenge', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    const cb = await followProvider(authorize.href, CALLBACK('google'));
    const before = await counts();
    expect((await hitCallback(cb)).headers.location).toBe(FAILURE('google'));
    expect(await counts()).toEqual(before);
  });

  it('refuses a provider error answer, creating nothing, and the state cannot be used afterwards', async () => {
    op.denyNext();
    const cb = await followProvider(await begin('google', 'SPONSOR01'), CALLBACK('google'));
    expect(cb.searchParams.get('error')).toBe('access_denied');
    const before = await counts();
    expect((await hitCallback(cb)).headers.location).toBe(FAILURE('google'));
    const used = await t.db.selectFrom('social_logins').select('used').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(used.used).toBe(true);
    expect(await counts()).toEqual(before);
  });

  it('refuses a blocked user', async () => {
    const who = account();
    const first = await signIn(who, 'SPONSOR01');
    const username = (await me(first.location.searchParams.get('token')!)).username;
    await t.db.updateTable('users').set({ status: 'blocked' }).where('username', '=', username).execute();
    const before = await counts();
    const { location } = await signIn(who);
    expect(location.href).toBe(FAILURE('google'));
    expect(await counts()).toEqual(before);
  });

  it('runs the Facebook OAuth 2 code flow with PKCE: new user to the referral step, then signs in; an e-mail present counts as verified', async () => {
    const authorize = new URL(await begin('facebook'));
    expect(authorize.origin + authorize.pathname).toBe(`${fb.base}/authorize`);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('scope')).toBe('email,public_profile');
    const who = { id: `fb${randomBytes(4).toString('hex')}`, name: 'Face Book', email: 'fbuser@example.com' };
    fb.setProfile(who);
    const cb = await followProvider(authorize.href, CALLBACK('facebook'));
    const res = await hitCallback(cb);
    const location = new URL(String(res.headers.location));
    expect(location.searchParams.get('requiresReferral')).toBe('true');
    expect(location.searchParams.get('provider')).toBe('facebook');
    expect(JSON.parse(location.searchParams.get('user')!)).toMatchObject({ name: 'Face Book', email: 'fbuser@example.com' });
    // Linked to a password account with the same e-mail (Facebook only returns confirmed e-mails).
    const pw = await passwordUser('fbowner@example.com', 'FBOWNER01');
    fb.setProfile({ id: `fb${randomBytes(4).toString('hex')}`, name: 'Owner', email: 'fbowner@example.com' });
    const linked = await hitCallback(await followProvider(await begin('facebook'), CALLBACK('facebook')));
    const token = new URL(String(linked.headers.location)).searchParams.get('token')!;
    expect((await me(token)).username).toBe(pw.username);
    // A replayed code is refused by the token endpoint.
    const before = await counts();
    fb.setProfile({ id: `fb${randomBytes(4).toString('hex')}`, name: 'X', email: 'x-fb@example.com' });
    const fresh = new URL(await followProvider(await begin('facebook', 'SPONSOR01'), CALLBACK('facebook')));
    fresh.searchParams.set('code', cb.searchParams.get('code')!);
    expect((await hitCallback(fresh)).headers.location).toBe(FAILURE('facebook'));
    expect(await counts()).toEqual(before);
  });

  it('identifies an Instagram user by id with a placeholder e-mail and never links an existing account', async () => {
    const id = `${Date.now()}`;
    // Someone registered the placeholder address by password: it must not be taken over.
    await passwordUser(`${id}@instagram.invalid`, 'INSTAOWN1');
    ig.setProfile({ id, username: 'insta_person' });
    const before = await counts();
    const refused = await hitCallback(await followProvider(await begin('instagram', 'SPONSOR01'), CALLBACK('instagram')));
    expect(refused.headers.location).toBe(FAILURE('instagram'));
    expect(await counts()).toEqual(before);

    const id2 = `${Date.now() + 1}`;
    ig.setProfile({ id: id2, username: 'insta_two' });
    const ok = await hitCallback(await followProvider(await begin('instagram', 'SPONSOR01'), CALLBACK('instagram')));
    const token = new URL(String(ok.headers.location)).searchParams.get('token')!;
    expect(await me(token)).toMatchObject({ email: `${id2}@instagram.invalid`, name: 'insta_two' });
    const again = await hitCallback(await followProvider(await begin('instagram'), CALLBACK('instagram')));
    expect((await me(new URL(String(again.headers.location)).searchParams.get('token')!)).email).toBe(`${id2}@instagram.invalid`);
  });
});
