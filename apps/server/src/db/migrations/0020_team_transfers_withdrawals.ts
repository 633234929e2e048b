import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Team figures kept as counters, updated in the transaction that changes them, so reading a
  // team of any size or depth is one row (no walk of the tree per request).
  await sql`
    create table team_stats (
      user_id bigint primary key references users(id),
      directs integer not null default 0,
      direct_business bigint not null default 0,
      network_users integer not null default 0,
      network_active_users integer not null default 0,
      network_business bigint not null default 0
    )`.execute(db);
  await sql`insert into team_stats (user_id) select id from users`.execute(db);

  await sql`
    create table transfers (
      id bigint generated always as identity primary key,
      sender_id bigint not null references users(id),
      receiver_id bigint not null references users(id),
      type text not null check (type in ('deposit', 'withdraw')),
      amount bigint not null check (amount > 0),
      created_at timestamptz not null default now(),
      check (sender_id <> receiver_id)
    )`.execute(db);
  await sql`create index transfers_sender_idx on transfers (sender_id, created_at desc)`.execute(db);
  await sql`create index transfers_receiver_idx on transfers (receiver_id, created_at desc)`.execute(db);

  await sql`
    create table withdrawals (
      id bigint generated always as identity primary key,
      user_id bigint not null references users(id),
      amount bigint not null check (amount > 0),
      fee bigint not null check (fee >= 0),
      receive_amount bigint not null check (receive_amount > 0),
      network text not null check (network in ('POLYGON', 'BSC', 'TRON')),
      wallet_address text not null,
      token text not null default 'USDT',
      status text not null default 'pending' check (status in ('pending', 'completed', 'rejected')),
      tx_hash text,
      reject_reason text,
      processed_by bigint references users(id),
      processed_at timestamptz,
      created_at timestamptz not null default now(),
      check (fee + receive_amount = amount)
    )`.execute(db);
  await sql`create index withdrawals_user_idx on withdrawals (user_id, created_at desc)`.execute(db);
  await sql`create index withdrawals_status_idx on withdrawals (status, created_at desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table withdrawals, transfers, team_stats`.execute(db);
}
