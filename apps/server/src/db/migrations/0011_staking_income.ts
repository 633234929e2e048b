import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One row of admin-editable settings; percentages as NUMERIC so no rate is ever a float.
  await sql`
    create table settings (
      id integer primary key default 1 check (id = 1),
      roi_income_percentage numeric(12, 6) not null default 0.5,
      stake_cap_percentage numeric(12, 6) not null default 200,
      direct_referral_percentage numeric(12, 6) not null default 5,
      withdrawal_fee_percentage numeric(12, 6) not null default 5,
      maintenance_mode boolean not null default false,
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`insert into settings (id) values (1)`.execute(db);

  await sql`
    create table reward_levels (
      level integer primary key check (level between 1 and 20),
      self_investment bigint not null check (self_investment >= 0),
      direct_investment bigint not null check (direct_investment >= 0),
      reward bigint not null check (reward > 0)
    )`.execute(db);
  await sql`
    insert into reward_levels (level, self_investment, direct_investment, reward) values
      (1, 100000000, 1000000000, 100000000),
      (2, 100000000, 5000000000, 500000000),
      (3, 100000000, 10000000000, 1000000000),
      (4, 100000000, 25000000000, 2500000000),
      (5, 500000000, 50000000000, 5000000000),
      (6, 500000000, 100000000000, 10000000000),
      (7, 500000000, 250000000000, 25000000000)`.execute(db);

  // Each stake keeps the terms it was bought with.
  await sql`
    create table stakes (
      id bigint generated always as identity primary key,
      user_id bigint not null references users(id),
      amount bigint not null check (amount > 0),
      daily_rate numeric(12, 6) not null,
      cap_percentage numeric(12, 6) not null,
      roi_paid bigint not null default 0 check (roi_paid >= 0),
      status text not null default 'active' check (status in ('active', 'completed')),
      start_date date not null,
      last_roi_date date,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index stakes_user_id_idx on stakes (user_id, created_at desc)`.execute(db);
  await sql`create index stakes_active_idx on stakes (id) where status = 'active'`.execute(db);

  await sql`
    create table income_records (
      id bigint generated always as identity primary key,
      user_id bigint not null references users(id),
      type smallint not null check (type in (1, 2, 3)),
      amount bigint not null check (amount > 0),
      note text not null,
      source_id text,
      for_date date,
      idempotency_key text not null unique,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index income_records_user_type_idx on income_records (user_id, type, created_at desc, id desc)`.execute(db);

  await sql`
    create table job_runs (
      name text not null,
      period text not null,
      started_at timestamptz not null default now(),
      finished_at timestamptz,
      result text,
      primary key (name, period)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table job_runs, income_records, stakes, reward_levels, settings`.execute(db);
}
