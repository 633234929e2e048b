import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readCookie } from '../../lib/cookies';
import { emailKey } from './email-key';

/**
 * Device tokens (server design, section 9, "Guess budgets per account, split by what the guesser
 * holds"; OWASP's "device cookies" against lock-out). Every successful sign-in hands the browser a
 * token the server signs: the account, a prefix of its e-mail's key, and the device's random id.
 * A request that carries a valid token of the account a code or a password is for draws on that
 * device's own budgets (its guess budget, its wrong-password count) instead of the budgets an
 * outsider who knows only the e-mail can spend. It grants nothing by itself: no session, no
 * skipped factor.
 *
 * Kept in one HttpOnly cookie for the whole API (Path=/api, SameSite=Strict), up to
 * DEVICE_TOKENS_KEPT accounts a browser (a shared phone), newest first. No table: the signature is
 * the proof, and a stolen token is only worth the budgets of that one device.
 */
export const DEVICE_COOKIE = 'device';
export const DEVICE_TOKENS_KEPT = 4;
const MAX_AGE_S = 400 * 86_400; // browsers cap cookie lifetimes at 400 days
const VERSION = 'd1';

export interface Device {
  /** the account that signed in on this device */
  userId: bigint;
  /** the first 16 hex digits of the account's e-mail key: checked without a database read */
  emailTag: string;
  /** the device's random id: the key of its budgets */
  id: string;
}

const sign = (secret: string, payload: string) => createHmac('sha256', secret).update(`device:${payload}`).digest('base64url').slice(0, 32);
const emailTagOf = (secret: string, email: string) => emailKey(secret, email).slice(0, 16);

/** The key of a device's guess budget and wrong-password count (beside the e-mail's keys). */
export const deviceKey = (d: Device) => `device:${d.id}`;

function encode(secret: string, d: Device): string {
  const payload = `${VERSION}.${d.userId.toString(36)}.${d.emailTag}.${d.id}`;
  return `${payload}.${sign(secret, payload)}`;
}

function decode(secret: string, token: string): Device | null {
  const parts = token.split('.');
  if (parts.length !== 5 || parts[0] !== VERSION) return null;
  const [, uid, emailTag, id, mac] = parts as [string, string, string, string, string];
  const want = Buffer.from(sign(secret, parts.slice(0, 4).join('.')));
  const given = Buffer.from(mac);
  if (given.length !== want.length || !timingSafeEqual(given, want)) return null;
  if (!/^[0-9a-z]{1,10}$/.test(uid) || !/^[0-9a-f]{16}$/.test(emailTag) || !/^[\w-]{16,32}$/.test(id)) return null;
  return { userId: BigInt(parseInt(uid, 36)), emailTag, id };
}

/** Every valid device token the request carries (forged or malformed ones are ignored). */
export function devicesOf(secret: string, req: FastifyRequest): Device[] {
  const raw = readCookie(req, DEVICE_COOKIE);
  if (!raw) return [];
  const out: Device[] = [];
  for (const t of raw.split('~').slice(0, DEVICE_TOKENS_KEPT)) {
    const d = decode(secret, t);
    if (d) out.push(d);
  }
  return out;
}

/** The request's device of this account, if it has signed in to it here before. */
export const deviceOfUser = (devices: Device[], userId: bigint | null) => (userId === null ? undefined : devices.find((d) => d.userId === userId));

/** The request's device of the account with this e-mail, judged from the token alone (no read). */
export const deviceOfEmail = (secret: string, devices: Device[], email: string) => {
  if (!devices.length) return undefined;
  const tag = emailTagOf(secret, email);
  return devices.find((d) => d.emailTag === tag);
};

/**
 * After a successful sign-in: the device cookie, keeping this device's id for the account when it
 * had one (its budgets continue), with the account's token first.
 */
export function setDeviceCookie(reply: FastifyReply, opts: { secret: string; secure: boolean }, held: Device[], user: { id: bigint; email: string }): void {
  const kept = held.find((d) => d.userId === user.id);
  const mine: Device = { userId: user.id, emailTag: emailTagOf(opts.secret, user.email), id: kept?.id ?? randomBytes(16).toString('base64url') };
  const tokens = [mine, ...held.filter((d) => d.userId !== user.id)].slice(0, DEVICE_TOKENS_KEPT).map((d) => encode(opts.secret, d));
  void reply.header(
    'set-cookie',
    `${DEVICE_COOKIE}=${tokens.join('~')}; Max-Age=${MAX_AGE_S}; Path=/api; HttpOnly; SameSite=Strict${opts.secure ? '; Secure' : ''}`,
  );
}
