import { channel } from 'node:diagnostics_channel';
import { OTP_RESEND_SECONDS } from '@app/core';
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { Executor } from '../../db/types';
import { AppError } from '../../lib/errors';
import { queueMail } from '../mail/service';

/**
 * One guess budget per account (server design, section 9, "One guess budget per account"): every
 * code a person can be asked for (sign-up, sign-in and reset codes, decoys alike, TOTP, recovery
 * codes, the withdrawal's totp_code) claims a slot here BEFORE it is compared, in one statement,
 * so parallel guesses on any engine never get past it. A right code gives its slot back, so the
 * budget counts wrong codes: at most GUESSES_PER_HOUR in any hour and GUESSES_PER_DAY in any 24
 * hours per e-mail key, across purposes and challenges. A new code never refills it.
 *
 * The key is the keyed HMAC of the normalized e-mail (`emailKey`), for registered and unknown
 * e-mails alike: a decoy's access id runs out exactly when a real one would.
 */
export const GUESSES_PER_HOUR = 10;
export const GUESSES_PER_DAY = 30;

export interface GuessBudgetTable {
  owner_key: string;
  slots: Date[];
  mailed_at: Date | null;
  alerted_at: Date | null;
}
declare module '../../db/types' {
  interface Database {
    guess_budget: GuessBudgetTable;
  }
}

/**
 * What the comparisons and code mails are, published as they happen (node:diagnostics_channel):
 * tests and operators can watch them without a hook in the code paths. Nothing subscribes by default.
 */
export const codeCompared = channel('usdt-stake:auth:code-compared');
export const codeMailed = channel('usdt-stake:auth:code-mailed');
export interface CodeComparedEvent {
  key: string;
  /** 'good', 'wrong', or 'replayed' (a right TOTP for a step already used: no guess) */
  result: string;
  at: Date;
}
export interface CodeMailedEvent {
  key: string;
  at: Date;
}

/** Whose budget a comparison spends: the e-mail key, and the account to tell when it runs out (none for an unknown e-mail). */
export interface BudgetOwner {
  key: string;
  userId: bigint | null;
}

/**
 * Claims a slot for one comparison, or refuses (429) when the hour's or the day's budget is spent.
 * One INSERT … ON CONFLICT DO UPDATE … WHERE: the row is locked and the condition evaluated on its
 * newest version, so concurrent claims on PostgreSQL serialize (PGlite has one connection). Slots
 * older than a day are dropped on the way. Returns the slot, to give back when the code was right.
 */
export async function claimGuess(ctx: AppContext, db: Executor, owner: BudgetOwner): Promise<Date> {
  const at = ctx.now();
  const claimed = await sql<{ ok: number }>`
    insert into guess_budget as b (owner_key, slots) values (${owner.key}, array[${at}::timestamptz])
    on conflict (owner_key) do update
      set slots = array(select s from unnest(b.slots) s where s > ${at}::timestamptz - interval '24 hours' order by s) || ${at}::timestamptz
      where (select count(*) from unnest(b.slots) s where s > ${at}::timestamptz - interval '1 hour') < ${GUESSES_PER_HOUR}
        and (select count(*) from unnest(b.slots) s where s > ${at}::timestamptz - interval '24 hours') < ${GUESSES_PER_DAY}
    returning 1 as ok`.execute(db);
  if (claimed.rows.length) return at;
  await alertOwner(ctx, db, owner, at);
  throw new AppError('TOO_MANY_ATTEMPTS');
}

/** A right code gives its slot back (one occurrence of its time). */
export async function returnGuess(db: Executor, key: string, slot: Date): Promise<void> {
  await sql`
    update guess_budget set slots = slots[1:array_position(slots, ${slot}::timestamptz) - 1] || slots[array_position(slots, ${slot}::timestamptz) + 1:]
    where owner_key = ${key} and array_position(slots, ${slot}::timestamptz) is not null`.execute(db);
}

/**
 * Compares a code under the budget: claims a slot, runs `compare`, gives the slot back when the
 * code was right (`'good'`) or right but already used (`'replayed'`: a double submit proves the
 * factor and is no guess). Every comparison is published on `codeCompared`.
 */
export async function compareUnderBudget<R extends string>(ctx: AppContext, db: Executor, owner: BudgetOwner, compare: () => R | Promise<R>): Promise<R> {
  const slot = await claimGuess(ctx, db, owner);
  const result = await compare();
  const good = result === 'good';
  if (codeCompared.hasSubscribers) codeCompared.publish({ key: owner.key, result, at: slot } satisfies CodeComparedEvent);
  if (good || result === 'replayed') await returnGuess(db, owner.key, slot);
  return result;
}

/**
 * One mail to the owner each time the budget runs out: sent when a claim is refused and none was
 * sent since the last slot was claimed (a refusal claims none), so a flood of refused tries mails
 * once. An unknown e-mail has nobody to tell.
 */
async function alertOwner(ctx: AppContext, db: Executor, owner: BudgetOwner, at: Date): Promise<void> {
  const first = await sql<{ ok: number }>`
    update guess_budget set alerted_at = ${at}
    where owner_key = ${owner.key} and (alerted_at is null or alerted_at < (select max(s) from unnest(slots) s))
    returning 1 as ok`.execute(db);
  if (first.rows.length && owner.userId !== null) await queueMail(db, owner.userId, 'code_budget_spent');
}

/**
 * At most one code mail per e-mail key per OTP_RESEND_SECONDS, whatever the route (register,
 * login, resend, forgot-password), also when the newest challenge is dead: claims the mail slot in
 * one statement. Returns when the code goes out: `at` (now), a later time (`defer`: inside the
 * wait a code with nothing in the mailbox to carry is mailed once, when the wait ends, and that
 * time becomes the slot, so the next mail waits 300 s from it), or null (no mail). `want` false
 * runs the same statement so that it changes nothing but makes the key's row when there is none:
 * a decoy does the same work as a real challenge (the same row read and conflict; issue 46's rerun
 * of the timing bench told a registered e-mail at forgot-password by the row alone) and never
 * takes the owner's slot.
 */
export async function claimMailSlot(ctx: AppContext, db: Executor, key: string, want: boolean, defer = false, at = ctx.now()): Promise<Date | null> {
  // `prev`: the slot before this statement (the caller holds the key's lock), so a deferred code
  // that takes over a slot already deferred to the same time is not a second mail.
  const r = await sql<{ mailed_at: Date | null; prev_at: Date | null }>`
    with prev as (select mailed_at from guess_budget where owner_key = ${key})
    insert into guess_budget as b (owner_key, mailed_at) values (${key}, case when ${want} then ${at}::timestamptz end)
    on conflict (owner_key) do update set mailed_at = case
        when b.mailed_at is null or b.mailed_at <= ${at}::timestamptz - make_interval(secs => ${OTP_RESEND_SECONDS}) then ${at}::timestamptz
        when b.mailed_at > ${at}::timestamptz then b.mailed_at
        else b.mailed_at + make_interval(secs => ${OTP_RESEND_SECONDS}) end
      where ${want} and (b.mailed_at is null or b.mailed_at <= ${at}::timestamptz - make_interval(secs => ${OTP_RESEND_SECONDS}) or ${defer})
    returning mailed_at, (select mailed_at from prev) as prev_at`.execute(db);
  const row = r.rows[0];
  // No row: nothing changed; a row with no time: a decoy's first claim made the key's row (so a
  // known and an unknown e-mail do the same work from then on), and no mail.
  if (!row?.mailed_at) return null;
  const when = new Date(row.mailed_at);
  const moved = row.prev_at === null || new Date(row.prev_at).getTime() !== when.getTime();
  if (moved && codeMailed.hasSubscribers) codeMailed.publish({ key, at: when } satisfies CodeMailedEvent);
  return when;
}

/** The daily clean-up's part: rows with no slot in the last day and no mail inside the wait. */
export async function forgetIdleBudgets(db: Executor, now: Date): Promise<number> {
  const r = await sql`
    delete from guess_budget where not exists (select 1 from unnest(slots) s where s > ${now}::timestamptz - interval '24 hours')
      and (mailed_at is null or mailed_at <= ${now}::timestamptz - make_interval(secs => ${OTP_RESEND_SECONDS}))`.execute(db);
  return Number(r.numAffectedRows ?? 0n);
}
