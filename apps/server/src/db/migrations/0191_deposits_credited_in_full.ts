import { sql, type Kysely } from 'kysely';

/**
 * A deposit is credited for what arrived, on every gateway (issue 47): an overpayment at a hosted
 * gateway (asked 50, paid 70) credits 70, as the chain gateway already did (0170). So the cap
 * `credited_amount <= price_amount` goes for all providers; credited_amount stays non-negative.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table payments drop constraint payments_credited_range`.execute(db);
  await sql`alter table payments add constraint payments_credited_range check (credited_amount >= 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table payments drop constraint payments_credited_range`.execute(db);
  await sql`
    alter table payments add constraint payments_credited_range
      check (credited_amount >= 0 and (provider = 'chain' or credited_amount <= price_amount))`.execute(db);
}
