import { sql } from 'kysely';
import { CUSTODY_NETWORKS, type TAddressFamily, type TPayCurrency } from '@app/core';
import type { AppContext } from '../../context';
import type { Executor } from '../../db/types';
import { AppError } from '../../lib/errors';
import { deriveAddress, displayAddress } from './derive';
import './table';

/** A user's permanent deposit address of one family, both forms. */
export interface UserAddress {
  family: TAddressFamily;
  hex: string;
  display: string;
  index: number;
}

/**
 * The user's derivation index: taken once from the sequence, then the same forever. A race
 * between two first requests for one user is settled by the primary key; the loser's sequence
 * value is a gap that nobody is ever given, so an index never serves two users.
 */
export async function addressIndexOf(db: Executor, userId: bigint): Promise<number> {
  await sql`insert into custody_accounts (user_id, idx) values (${userId}, nextval('custody_address_index_seq'))
            on conflict (user_id) do nothing`.execute(db);
  const row = await db.selectFrom('custody_accounts').select('idx').where('user_id', '=', userId).executeTakeFirstOrThrow();
  return row.idx;
}

/**
 * The user's address of a family, derived from the configured account xpub at the user's index and
 * stored the first time (the watcher reads the stored ones). An address stored under another xpub
 * than the one configured now is not handed out: deposits to it would go to a key the operator may
 * no longer hold (docs/custody.md, changing the xpub).
 */
export async function ensureAddress(ctx: AppContext, userId: bigint, family: TAddressFamily): Promise<UserAddress> {
  const xpub = ctx.config.payments.custody.xpubs[family];
  if (!xpub) throw new AppError('BAD_REQUEST', 'This network is not available for deposits');
  const stored = await ctx.db
    .selectFrom('custody_addresses')
    .select(['address', 'idx', 'xpub'])
    .where('family', '=', family)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  let row = stored;
  if (!row) {
    const index = await addressIndexOf(ctx.db, userId);
    const derived = deriveAddress(family, xpub.key, index);
    await ctx.db
      .insertInto('custody_addresses')
      .values({ family, address: derived.hex, user_id: userId, idx: index, xpub: xpub.text })
      .onConflict((oc) => oc.doNothing())
      .execute();
    row = await ctx.db
      .selectFrom('custody_addresses')
      .select(['address', 'idx', 'xpub'])
      .where('family', '=', family)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    // Only another user's row at the same address could stop ours: that is a broken derivation.
    if (!row) throw new Error(`custody address ${derived.hex} (${family} index ${index}) is already taken`);
  }
  if (row.xpub !== xpub.text) throw new AppError('BAD_REQUEST', 'Deposit addresses are being changed. Please try again later or contact support.');
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
