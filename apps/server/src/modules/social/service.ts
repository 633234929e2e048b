import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { ZUpdateReferralRequest } from '@app/core';
import type { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import type { Executor } from '../../db/types';
import { AppError, fieldError } from '../../lib/errors';
import { createSession, deleteUserSessions, generateUsername, hashToken, removeUnverifiedUser, startLoginChallenge } from '../auth/service';
import * as team from '../team/service';
import { socialProvider, type SocialProfile } from './providers';
import type { SocialProviderName } from './table';
import '../users/table';
import './table';

export const SOCIAL_PROVIDERS: readonly SocialProviderName[] = ['google', 'facebook', 'instagram'];
/** A trip to the provider and a pending sign-up both live 10 minutes. */
const TTL_MS = 10 * 60_000;
export const SIGNUP_COOKIE = 'social_signup';
export const SIGNUP_COOKIE_MAX_AGE = TTL_MS / 1000;
/**
 * Binds a trip to the provider to the browser that started it (login CSRF): set on the start
 * redirect, it must come back on the callback, where a callback URL opened in any other browser
 * finds it missing or different and is refused. It lives as long as the state does.
 */
export const STATE_COOKIE = 'social_state';
export const STATE_COOKIE_MAX_AGE = TTL_MS / 1000;
const REF_RE = /^[A-Za-z0-9]{9}$/;
const SESSION_EXPIRED = 'Invalid or expired sign-up session';

const random = () => randomBytes(32).toString('base64url');
/** State and cookie values are stored as keyed hashes (like session tokens). */
const keyed = (ctx: AppContext, kind: string, value: string) => hashToken(ctx.secret, `${kind}:${value}`);

export function redirectUri(ctx: AppContext, provider: SocialProviderName): string {
  return `${ctx.config.publicUrl}/api/auth/${provider}/callback`;
}

/** The state cookie is sent back only to the callback of the provider it was set for. */
export function stateCookiePath(provider: SocialProviderName): string {
  return `/api/auth/${provider}/callback`;
}

/** The state cookie's value: a keyed hash of the state, so neither the state nor its stored hash gives it. */
const browserBinding = (ctx: AppContext, state: string) => keyed(ctx, 'browser', state);

/** Whether the cookie the browser sent is the one the start of this state set (constant time). */
function boundToBrowser(ctx: AppContext, state: string, cookie: string | undefined): boolean {
  const expected = Buffer.from(browserBinding(ctx, state));
  const given = Buffer.from(cookie ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function failureUrl(ctx: AppContext, provider: SocialProviderName): string {
  return `${ctx.config.publicUrl}/signup?error=1&provider=${provider}`;
}

/** Where the browser goes after the callback, and the pending sign-up cookie when one was made. */
export interface CallbackOutcome {
  location: string;
  signupCookie?: string;
  /** The state cookie matched (whatever followed, its state is now spent or dead): it is to be cleared. */
  clearStateCookie?: boolean;
  outcome: 'signed-in' | 'pending' | 'failed';
  /** who got a session: the route hands this browser the account's device token (auth/device.ts) */
  signedIn?: { id: bigint; email: string };
}

/**
 * GET /auth/<provider>: stores state, nonce and PKCE verifier server-side and returns the provider
 * URL, with the value of the state cookie that binds this trip to the browser.
 */
export async function start(ctx: AppContext, provider: SocialProviderName, ref: string | undefined): Promise<{ url: string; stateCookie: string }> {
  const p = socialProvider(ctx.config, provider);
  if (!p.configured) throw new AppError('NOT_FOUND', 'Sign-in provider not configured');
  const flow = { state: random(), nonce: random(), codeVerifier: random(), redirectUri: redirectUri(ctx, provider) };
  const url = await p.authorizationUrl(flow);
  await ctx.db
    .insertInto('social_logins')
    .values({
      state_hash: keyed(ctx, 'state', flow.state),
      provider,
      nonce: flow.nonce,
      code_verifier: flow.codeVerifier,
      ref: ref && REF_RE.test(ref) ? ref.toUpperCase() : null,
      expires_at: new Date(Date.now() + TTL_MS),
    })
    .execute();
  return { url: url.href, stateCookie: browserBinding(ctx, flow.state) };
}

class Refused extends Error {}

/**
 * GET /auth/<provider>/callback. The state is single use and bound to the browser that started the
 * flow by the state cookie; any failure (no or another browser's state cookie, unknown or replayed
 * state, provider error, code or PKCE refused, bad ID token or nonce, refused link, blocked user)
 * ends on the failure redirect with nothing created.
 */
export async function callback(
  ctx: AppContext,
  log: FastifyBaseLogger,
  provider: SocialProviderName,
  rawQuery: string,
  stateCookie: string | undefined,
): Promise<CallbackOutcome> {
  // Once the state cookie has matched, it has done its work whatever follows: it is cleared. A cookie
  // that did not match is left alone (it may belong to a trip this browser has under way).
  let bound = false;
  const fail = (reason: string, err?: unknown): CallbackOutcome => {
    log.warn({ provider, reason, err: err instanceof Error ? err.message : undefined }, 'social sign-in refused');
    return { location: failureUrl(ctx, provider), outcome: 'failed', clearStateCookie: bound };
  };
  const p = socialProvider(ctx.config, provider);
  if (!p.configured) return fail('not configured');
  const query = new URLSearchParams(rawQuery);
  const states = query.getAll('state');
  if (states.length !== 1 || !states[0]) return fail('no state');
  const state = states[0];
  // Login CSRF: a callback URL opened in a browser that did not start this flow (no cookie, or the
  // cookie of another start) is refused before anything is consumed.
  if (!boundToBrowser(ctx, state, stateCookie)) return fail('state not bound to this browser');
  bound = true;
  // Consume the state first, atomically: a second use of the same answer finds nothing.
  const login = await ctx.db
    .updateTable('social_logins')
    .set({ used: true })
    .where('state_hash', '=', keyed(ctx, 'state', state))
    .where('provider', '=', provider)
    .where('used', '=', false)
    .where('expires_at', '>', new Date())
    .returning(['nonce', 'code_verifier', 'ref'])
    .executeTakeFirst();
  if (!login) return fail('unknown, expired or used state');
  if (query.has('error')) return fail(`provider error ${query.get('error')}`);
  const callbackUrl = new URL(redirectUri(ctx, provider));
  callbackUrl.search = query.toString();
  let profile: SocialProfile;
  try {
    profile = await p.exchange(callbackUrl, { state, nonce: login.nonce, codeVerifier: login.code_verifier, redirectUri: redirectUri(ctx, provider) });
  } catch (err) {
    return fail('exchange failed', err);
  }
  try {
    const outcome = await settle(ctx, provider, profile, login.ref);
    team.kickDrain(ctx.db); // a new member's sponsor chain, written as one pending delta
    return { ...outcome, clearStateCookie: true };
  } catch (err) {
    if (err instanceof Refused) return fail(err.message);
    // Two callbacks for one new account at the same moment: the unique index answers for the loser.
    if ((err as { code?: string }).code === '23505') return fail('conflict', err);
    throw err;
  }
}

/** A session for the user, or, when they have 2FA on, the same second step as a password login. */
async function signedIn(ctx: AppContext, tx: Executor, provider: SocialProviderName, userId: bigint): Promise<CallbackOutcome> {
  const user = await tx.selectFrom('users').select(['email', 'is_admin', 'totp_enabled_at']).where('id', '=', userId).executeTakeFirstOrThrow();
  if (user.totp_enabled_at) {
    const q = new URLSearchParams({ requires2fa: '1', challenge: await startLoginChallenge(ctx, tx, userId), provider });
    return { location: `${ctx.config.publicUrl}/signup?${q.toString()}`, outcome: 'signed-in' };
  }
  const q = new URLSearchParams({ token: await createSession(tx, ctx.secret, userId), provider });
  if (user.is_admin) q.set('is_admin', 'true');
  return { location: `${ctx.config.publicUrl}/signup?${q.toString()}`, outcome: 'signed-in', signedIn: { id: userId, email: user.email } };
}

async function findSponsor(tx: Executor, ref: string) {
  const sponsor = await tx.selectFrom('users').select(['id', 'status', 'email_verified_at']).where('username', '=', ref.toUpperCase()).executeTakeFirst();
  return sponsor && sponsor.status !== 'blocked' && sponsor.email_verified_at ? sponsor : undefined;
}

async function createSocialUser(
  tx: Executor,
  input: {
    provider: SocialProviderName;
    subject: string;
    email: string;
    identityEmail: string | null;
    name: string;
    username: string;
    referrerId: bigint | null;
  },
): Promise<bigint> {
  const user = await tx
    .insertInto('users')
    .values({
      name: input.name,
      email: input.email,
      username: input.username,
      password_hash: null,
      referrer_id: input.referrerId,
      email_verified_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await tx.insertInto('social_identities').values({ user_id: user.id, provider: input.provider, subject: input.subject, email: input.identityEmail }).execute();
  await team.onUserCreated(tx, user.id, input.referrerId);
  return user.id;
}

/** The name a new account takes from the provider's profile. */
const providerName = (profile: SocialProfile, email: string | null) => (profile.name ?? email?.split('@')[0] ?? 'User').slice(0, 100);

/**
 * An unverified account kept by a provider-vouched sign-in leaves the team of the sponsor whoever
 * typed the address chose. Only when nobody joined under it (its team place is then its own only).
 */
async function dropUnprovenSponsor(tx: Executor, userId: bigint): Promise<void> {
  const row = await tx
    .selectFrom('users as u')
    .select((eb) => ['u.referrer_id', eb.exists(eb.selectFrom('users as c').select('c.id').whereRef('c.referrer_id', '=', 'u.id')).as('has_team')])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!row || row.referrer_id === null || row.has_team) return;
  await team.onUserRemoved(tx, userId, row.referrer_id);
  await tx.updateTable('users').set({ referrer_id: null }).where('id', '=', userId).execute();
  await team.onUserCreated(tx, userId, null);
}

async function settle(ctx: AppContext, provider: SocialProviderName, profile: SocialProfile, ref: string | null): Promise<CallbackOutcome> {
  return ctx.db.transaction().execute(async (tx) => {
    // 1. A provider account seen before.
    const known = await tx
      .selectFrom('social_identities')
      .innerJoin('users', 'users.id', 'social_identities.user_id')
      .select(['users.id', 'users.status', 'users.is_admin'])
      .where('social_identities.provider', '=', provider)
      .where('social_identities.subject', '=', profile.subject)
      .executeTakeFirst();
    if (known) {
      if (known.status === 'blocked') throw new Refused('blocked user');
      return signedIn(ctx, tx, provider, known.id);
    }
    // 2. An account with the same e-mail: linked only when the provider says the e-mail is verified.
    //    Instagram has no e-mail and is never linked.
    const email = provider === 'instagram' ? null : profile.email;
    if (email) {
      const existing = await tx
        .selectFrom('users')
        .select(['id', 'status', 'is_admin', 'email_verified_at'])
        .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
        .executeTakeFirst();
      if (existing) {
        if (!profile.emailVerified) throw new Refused('e-mail registered but not verified by the provider');
        if (existing.status === 'blocked') throw new Refused('blocked user');
        // A password set by someone who never proved the address must never open the account the
        // owner now signs in to (server design, section 9): the unverified account is replaced.
        const replaced = !existing.email_verified_at && (await removeUnverifiedUser(tx, existing.id));
        if (!replaced) {
          if (!existing.email_verified_at) {
            // It cannot go (an admin, or a referral under it): keep it, but without the unproven
            // password, name or sponsor (the provider's name; no sponsor unless it has a team of its own).
            await tx
              .updateTable('users')
              .set({ password_hash: null, name: providerName(profile, email), email_verified_at: new Date(), updated_at: new Date() })
              .where('id', '=', existing.id)
              .execute();
            await dropUnprovenSponsor(tx, existing.id);
            await deleteUserSessions(tx, existing.id);
            await tx.updateTable('otp_challenges').set({ dead: true }).where('user_id', '=', existing.id).execute();
          }
          await tx.insertInto('social_identities').values({ user_id: existing.id, provider, subject: profile.subject, email }).execute();
          return signedIn(ctx, tx, provider, existing.id);
        }
      }
    }
    // 3. A new user.
    const accountEmail = email ?? `${profile.subject}@${provider}.invalid`;
    const name = providerName(profile, email);
    const sponsor = ref ? await findSponsor(tx, ref) : undefined;
    if (sponsor) {
      const userId = await createSocialUser(tx, {
        provider,
        subject: profile.subject,
        email: accountEmail,
        identityEmail: email,
        name,
        username: await generateUsername(tx),
        referrerId: sponsor.id,
      });
      return signedIn(ctx, tx, provider, userId);
    }
    // 4. No referral: a pending sign-up (not a user yet), named by an HttpOnly cookie.
    const cookie = random();
    const username = await generateUsername(tx);
    await tx
      .insertInto('social_signups')
      .values({
        cookie_hash: keyed(ctx, 'signup', cookie),
        provider,
        subject: profile.subject,
        email: accountEmail,
        name,
        username,
        email_verified: profile.emailVerified,
        expires_at: new Date(Date.now() + TTL_MS),
      })
      .execute();
    const q = new URLSearchParams({ requiresReferral: 'true', provider, user: JSON.stringify({ username, name, email: email ?? '' }) });
    return { location: `${ctx.config.publicUrl}/signup?${q.toString()}`, signupCookie: cookie, outcome: 'pending' };
  });
}

/**
 * POST /auth/update-referral: finishes ONLY the pending social sign-up that the cookie names, and
 * only when the username matches it. Anything else (no cookie, a password account, a finished or
 * expired sign-up) is 400 with no token.
 */
export async function updateReferral(
  ctx: AppContext,
  cookie: string | undefined,
  input: z.infer<typeof ZUpdateReferralRequest>,
): Promise<{ token: string; is_admin: boolean }> {
  if (!cookie) throw new AppError('BAD_REQUEST', SESSION_EXPIRED);
  return ctx.db
    .transaction()
    .execute(async (tx) => {
      // Claimed first (row lock): a second request with the same cookie waits, then finds it finished.
      const pending = await tx
        .updateTable('social_signups')
        .set({ completed_at: new Date() })
        .where('cookie_hash', '=', keyed(ctx, 'signup', cookie))
        .where('completed_at', 'is', null)
        .where('expires_at', '>', new Date())
        .returningAll()
        .executeTakeFirst();
      if (!pending || pending.username !== input.username) throw new AppError('BAD_REQUEST', SESSION_EXPIRED);
      let referrerId: bigint | null = null;
      if (input.referral_id) {
        const sponsor = await findSponsor(tx, input.referral_id);
        if (!sponsor) throw fieldError('referral_id', 'Invalid referral ID');
        referrerId = sponsor.id;
      }
      const identity = await tx
        .selectFrom('social_identities')
        .select('id')
        .where('provider', '=', pending.provider)
        .where('subject', '=', pending.subject)
        .executeTakeFirst();
      if (identity) throw new AppError('BAD_REQUEST', SESSION_EXPIRED);
      const emailTaken = await tx
        .selectFrom('users')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['email']), '=', pending.email.toLowerCase()))
        .executeTakeFirst();
      if (emailTaken) throw new AppError('CONFLICT', 'Email already registered');
      const usernameTaken = await tx.selectFrom('users').select('id').where('username', '=', pending.username).executeTakeFirst();
      const userId = await createSocialUser(tx, {
        provider: pending.provider,
        subject: pending.subject,
        email: pending.email,
        identityEmail: pending.email.endsWith('.invalid') ? null : pending.email,
        name: pending.name,
        username: usernameTaken ? await generateUsername(tx) : pending.username,
        referrerId,
      });
      await tx.updateTable('social_signups').set({ user_id: userId }).where('id', '=', pending.id).execute();
      return { token: await createSession(tx, ctx.secret, userId), is_admin: false };
    })
    .catch((err: unknown) => {
      if ((err as { code?: string }).code === '23505') throw new AppError('BAD_REQUEST', SESSION_EXPIRED);
      throw err;
    })
    .finally(() => team.kickDrain(ctx.db));
}

/** For the daily clean-up job: sign-in trips and unfinished sign-ups a day past their expiry. */
export async function purgeExpired(ctx: Pick<AppContext, 'db'>): Promise<Record<string, number>> {
  const dayAgo = new Date(Date.now() - 86_400_000);
  const logins = await ctx.db.deleteFrom('social_logins').where('expires_at', '<', dayAgo).executeTakeFirst();
  const signups = await ctx.db.deleteFrom('social_signups').where('expires_at', '<', dayAgo).where('completed_at', 'is', null).executeTakeFirst();
  return { social_logins: Number(logins.numDeletedRows), social_signups: Number(signups.numDeletedRows) };
}
