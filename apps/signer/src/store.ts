import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/**
 * The signer's own database (never the server's): PGlite in SIGNER_DATA_DIR by default, or a
 * PostgreSQL database (SIGNER_DATABASE_URL). It holds every transaction the signer signed, written
 * before the transaction is broadcast, so a restart re-broadcasts the same bytes instead of
 * signing a second payment.
 */
export interface Sql {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
}
export interface Store extends Sql {
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Migrations in order; each runs once, in its own transaction (`signer_migrations` remembers them). */
const MIGRATIONS: string[] = [
  `
  -- One nonce of one network, claimed by one withdrawal. Nonces are never reused: a nonce is
  -- consumed even by a reverted transaction, so (network, nonce) is unique whatever the state.
  -- A withdrawal has at most one slot that is live (can still be mined) or mined.
  create table slots (
    id bigserial primary key,
    withdrawal_id bigint not null,
    network text not null,
    nonce bigint not null,
    amount_micro bigint not null check (amount_micro > 0),
    to_address text not null,
    state text not null default 'live' check (state in ('live', 'mined', 'dead')),
    dead_reason text,
    created_at timestamptz not null default now(),
    unique (network, nonce)
  );
  create unique index slots_one_live_per_withdrawal on slots (withdrawal_id) where state in ('live', 'mined');
  -- Every signed transaction of a slot: the first and its replacements (same nonce, higher fee).
  create table signed_txs (
    hash text primary key,
    slot_id bigint not null references slots(id),
    raw text not null,
    gas_price numeric not null,
    created_at timestamptz not null default now(),
    broadcast_at timestamptz
  );
  create index signed_txs_slot on signed_txs (slot_id);
  -- The next nonce of the hot address per network, as this signer counts it.
  create table nonces (network text primary key, next bigint not null);
  `,
  `
  -- A sweep of one deposit address: the gas top-up from the hot wallet (when the address lacked gas)
  -- and the token transfer, each stored signed before it is broadcast. One open sweep per address.
  create table sweeps (
    id bigserial primary key,
    network text not null,
    address text not null,
    idx integer not null,
    amount_raw numeric(78, 0) not null check (amount_raw > 0),
    destination text not null check (destination in ('hot', 'cold')),
    gas_nonce bigint,
    gas_hash text,
    gas_raw text,
    token_hash text,
    token_raw text,
    state text not null check (state in ('gas', 'token', 'reported', 'dead')),
    created_at timestamptz not null default now()
  );
  create unique index sweeps_one_open on sweeps (network, address) where state in ('gas', 'token');
  `,
  `
  -- Tron: a transaction carries its expiration (ms since the epoch, the chain's clock); raw holds the
  -- signed transaction as the node's JSON. A Tron slot's nonce is the signer's attempt number on
  -- Tron (1, 2, …: every Tron transaction it builds takes the next one), which Tron itself has no use for.
  alter table signed_txs add column expires_at bigint;
  `,
  `
  -- The server is asked before a payout is broadcast (claim-before-broadcast): a refusal (the
  -- withdrawal was rejected meanwhile) leaves the slot 'void', signed but never sent. Its nonce was
  -- never used on chain, so it may be taken again: the nonce is unique among the slots that are not void.
  alter table slots drop constraint slots_network_nonce_key;
  create unique index slots_network_nonce on slots (network, nonce) where state <> 'void';
  alter table slots drop constraint slots_state_check;
  alter table slots add constraint slots_state_check check (state in ('live', 'mined', 'dead', 'void'));
  `,
];

async function migrate(store: Store): Promise<void> {
  await store.query('create table if not exists signer_migrations (version int primary key, applied_at timestamptz not null default now())');
  const done = new Set((await store.query<{ version: number }>('select version from signer_migrations')).map((r) => Number(r.version)));
  for (const [i, text] of MIGRATIONS.entries()) {
    if (done.has(i + 1)) continue;
    await store.transaction(async (tx) => {
      for (const statement of text.split(/;\s*$/m).filter((s) => s.trim() && !/^\s*(--.*\n?\s*)*$/.test(s))) await tx.query(statement);
      await tx.query('insert into signer_migrations (version) values ($1)', [i + 1]);
    });
  }
}

function pgliteStore(dir: string): Store {
  mkdirSync(dir, { recursive: true });
  const db = new PGlite(dir);
  const wrap = (q: { query: PGlite['query'] }): Sql => ({ query: async (text, params) => (await q.query(text, params)).rows as never });
  return {
    ...wrap(db),
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    close: () => db.close(),
  };
}

function postgresStore(url: string): Store {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  return {
    query: async (text, params) => (await pool.query(text, params)).rows,
    transaction: async (fn) => {
      const c = await pool.connect();
      try {
        await c.query('begin');
        const out = await fn({ query: async (text, params) => (await c.query(text, params)).rows });
        await c.query('commit');
        return out;
      } catch (err) {
        await c.query('rollback').catch(() => undefined);
        throw err;
      } finally {
        c.release();
      }
    },
    close: () => pool.end(),
  };
}

export async function openStore(opts: { dataDir: string; databaseUrl?: string | undefined }): Promise<Store> {
  const store = opts.databaseUrl ? postgresStore(opts.databaseUrl) : pgliteStore(opts.dataDir);
  await migrate(store);
  return store;
}
