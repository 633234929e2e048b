import { sql } from 'kysely';
import type { Tx } from '../../db/types';
import { AppError } from '../../lib/errors';
import type { AccountRef } from './accounts';
import type { EntryInput } from './service';

const CHUNK = 1000;

/** The order post() locks accounts in (ledger/service.ts accountSortKey), from a refKey. */
function sortKey(ref: string): string {
  const [t, a, b] = ref.split('|');
  return t === 's' ? `0:${a}` : `1:${a!.padStart(20, '0')}:${b}`;
}

function refKey(a: AccountRef): string {
  return 'system' in a ? `s|${a.system}` : `u|${a.userId}|${a.kind}`;
}

/**
 * Posts many balanced entries with a handful of statements (the ROI job writes one entry per
 * stake-day for every active stake). Same guarantees as post(): each entry balances, each key
 * writes once (entries whose key exists are skipped and reported), user accounts never go
 * below zero, and accounts are locked in the order post() uses. Returns the keys actually written.
 */
export async function postBatch(tx: Tx, entries: EntryInput[]): Promise<Set<string>> {
  const written = new Set<string>();
  for (let i = 0; i < entries.length; i += CHUNK) {
    for (const k of await postChunk(tx, entries.slice(i, i + CHUNK))) written.add(k);
  }
  return written;
}

async function postChunk(tx: Tx, entries: EntryInput[]): Promise<string[]> {
  if (!entries.length) return [];
  for (const e of entries) {
    const sum = e.postings.reduce((s, p) => s + p.amount, 0n);
    if (sum !== 0n || e.postings.filter((p) => p.amount !== 0n).length < 2) throw new Error(`ledger entry ${e.key} does not balance`);
  }
  const inserted = await tx
    .insertInto('ledger_entries')
    .values(entries.map((e) => ({ idempotency_key: e.key, kind: e.kind, user_id: e.userId ?? null, memo: e.memo ?? null })))
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning(['id', 'idempotency_key'])
    .execute();
  if (!inserted.length) return [];
  const idByKey = new Map(inserted.map((r) => [r.idempotency_key, r.id]));
  const created = entries.filter((e) => idByKey.has(e.key));

  // Make sure every account exists, then lock them all in id order before moving balances.
  const refs = new Map<string, AccountRef>();
  for (const e of created) for (const p of e.postings) refs.set(refKey(p.account), p.account);
  // Same order as post(): system accounts by kind, then user accounts by user id and kind. Rows
  // created or locked in another order (account ids are not user ids) deadlock with a transfer
  // or a stake over the same accounts.
  const rows = [...refs.entries()]
    .sort(([a], [b]) => (sortKey(a) < sortKey(b) ? -1 : 1))
    .map(([, a]) => ('system' in a ? { user_id: null, kind: a.system } : { user_id: a.userId, kind: a.kind }));
  await tx
    .insertInto('ledger_accounts')
    .values(rows)
    .onConflict((oc) => oc.columns(['user_id', 'kind']).doNothing())
    .execute();
  const userIds = [...new Set(rows.filter((r) => r.user_id !== null).map((r) => r.user_id as bigint))];
  const systemKinds = [...new Set(rows.filter((r) => r.user_id === null).map((r) => r.kind))];
  const accounts = await tx
    .selectFrom('ledger_accounts')
    .select(['id', 'user_id', 'kind'])
    .where((eb) =>
      eb.or([
        ...(userIds.length ? [eb('user_id', 'in', userIds)] : []),
        ...(systemKinds.length ? [eb.and([eb('user_id', 'is', null), eb('kind', 'in', systemKinds)])] : []),
      ]),
    )
    .orderBy(sql`user_id is not null`)
    .orderBy('user_id')
    .orderBy(sql`kind collate "C"`)
    .forUpdate()
    .execute();
  const idByRef = new Map(accounts.map((a) => [a.user_id === null ? `s|${a.kind}` : `u|${a.user_id}|${a.kind}`, a.id]));

  const deltas = new Map<bigint, bigint>();
  const postings: { entry_id: bigint; account_id: bigint; amount: bigint }[] = [];
  for (const e of created) {
    for (const p of e.postings) {
      if (p.amount === 0n) continue;
      const accountId = idByRef.get(refKey(p.account));
      if (accountId === undefined) throw new Error(`ledger account missing for ${refKey(p.account)}`);
      postings.push({ entry_id: idByKey.get(e.key)!, account_id: accountId, amount: p.amount });
      deltas.set(accountId, (deltas.get(accountId) ?? 0n) + p.amount);
    }
  }
  const values = [...deltas.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  const updated = await sql<{ id: bigint }>`
    update ledger_accounts a set balance = a.balance + d.delta
    from (values ${sql.join(values.map(([id, delta]) => sql`(${id}::bigint, ${delta}::bigint)`))}) as d(id, delta)
    where a.id = d.id and (a.user_id is null or a.balance + d.delta >= 0)
    returning a.id`.execute(tx);
  if (updated.rows.length !== values.length) throw new AppError('INSUFFICIENT_BALANCE', 'Insufficient balance');
  for (let i = 0; i < postings.length; i += 3000)
    await tx
      .insertInto('ledger_postings')
      .values(postings.slice(i, i + 3000))
      .execute();
  return created.map((e) => e.key);
}
