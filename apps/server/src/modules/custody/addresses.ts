import { sql } from 'kysely';
import { CUSTODY_NETWORKS, type TAddressFamily, type TPayCurrency } from '@app/core';
import type { AppContext } from '../../context';
import type { Executor } from '../../db/types';
import { AppError } from '../../lib/errors';
import { deriveAddress, displayAddress, keyFingerprint } from './derive';
import './table';

/** A user's permanent deposit address of one family, both forms. */
export interface UserAddress {
  family: TAddressFamily;
  hex: string;
  display: string;
  index: number;
}

/**
 * The user's custody account: the parent row of their addresses (auth/unverified.ts reads it as "this
 * user has been given an address"). Its `idx` is the index the first key handed out before keys could
 * rotate; addresses now take theirs from their key's own sequence (nextKeyIndex).
 */
export async function addressIndexOf(db: Executor, userId: bigint): Promise<number> {
  await sql`insert into custody_accounts (user_id, idx) values (${userId}, nextval('custody_address_index_seq'))
            on conflict (user_id) do nothing`.execute(db);
  const row = await db.selectFrom('custody_accounts').select('idx').where('user_id', '=', userId).executeTakeFirstOrThrow();
  return row.idx;
}

/**
 * The next index of an account key, in one statement, so that two requests never get the same one. A
 * key seen for the first time starts above every address already stored under it (the key in use
 * when migration 0200 ran has addresses from the older shared sequence), so an index is never reused;
 * a lost race leaves a gap that nobody is given.
 */
export async function nextKeyIndex(db: Executor, family: TAddressFamily, fingerprint: string, xpub: string): Promise<number> {
  // Rows made before migration 0205 have no fingerprint yet: they are this key's when they carry its
  // xpub text. Filled first, so the index below counts them and never hands out one of their addresses again.
  await sql`update custody_addresses set key_fingerprint = ${fingerprint} where family = ${family} and key_fingerprint is null and xpub = ${xpub}`.execute(db);
  const res = await sql<{ idx: number }>`
    insert into custody_keys (family, fingerprint, xpub, next_idx)
    values (${family}, ${fingerprint}, ${xpub},
            (select coalesce(max(idx) + 1, 0) + 1 from custody_addresses where family = ${family} and key_fingerprint = ${fingerprint}))
    on conflict (family, fingerprint) do update set next_idx = custody_keys.next_idx + 1
    returning next_idx - 1 as idx`.execute(db);
  return res.rows[0]!.idx;
}

/**
 * The user's address of a family under the configured account key, derived at the key's next index
 * and stored the first time. After a rotation (a new CUSTODY_*_XPUB) a user gets a new address on
 * their next request; their addresses under older keys stay stored, so the watcher, which reads every
 * stored address whatever its key, still credits what arrives there.
 */
export async function ensureAddress(ctx: AppContext, userId: bigint, family: TAddressFamily): Promise<UserAddress> {
  const xpub = ctx.config.payments.custody.xpubs[family];
  if (!xpub) throw new AppError('BAD_REQUEST', 'This network is not available for deposits');
  const fingerprint = keyFingerprint(xpub.key);
  const current = () =>
    ctx.db
      .selectFrom('custody_addresses')
      .select(['address', 'idx'])
      .where('family', '=', family)
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('key_fingerprint', '=', fingerprint), eb.and([eb('key_fingerprint', 'is', null), eb('xpub', '=', xpub.text)])]))
      .executeTakeFirst();
  let row = await current();
  if (!row) {
    await addressIndexOf(ctx.db, userId);
    const index = await nextKeyIndex(ctx.db, family, fingerprint, xpub.text);
    const derived = deriveAddress(family, xpub.key, index);
    await ctx.db
      .insertInto('custody_addresses')
      .values({ family, address: derived.hex, user_id: userId, idx: index, xpub: xpub.text, key_fingerprint: fingerprint })
      .onConflict((oc) => oc.doNothing())
      .execute();
    row = await current();
    // Only another user's row at the same address could stop ours: that is a broken derivation.
    if (!row) throw new Error(`custody address ${derived.hex} (${family} index ${index}) is already taken`);
  }
  return { family, hex: row.address, display: displayAddress(family, row.address), index: row.idx };
}

/** The user's addresses for every configured network, by pay currency (GET /api/payments/addresses). */
export async function userAddresses(ctx: AppContext, userId: bigint): Promise<Partial<Record<TPayCurrency, string>>> {
  const out: Partial<Record<TPayCurrency, string>> = {};
  const configured = new Set(ctx.config.payments.custody.networks.map((n) => n.network));
  const byFamily = new Map<TAddressFamily, UserAddress>();
  for (const n of CUSTODY_NETWORKS) {
    if (!configured.has(n.network)) continue;
    let a = byFamily.get(n.family);
    if (!a) {
      a = await ensureAddress(ctx, userId, n.family);
      byFamily.set(n.family, a);
    }
    out[n.payCurrency] = a.display;
  }
  return out;
}
