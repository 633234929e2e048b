import { sql, type Kysely } from 'kysely';

/**
 * An admin may dismiss a transfer that waits for them (issue 49): dust under one micro-USDT, which
 * cannot be credited at all, or a transfer held above the automatic credit bound. `dismissed` keeps
 * the record (the chain still holds the tokens, the reconciliation still counts them) and takes it
 * off the admin's list for good; who dismissed it and why is in the audit log.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table chain_observations drop constraint chain_observations_status_check`.execute(db);
  await sql`
    alter table chain_observations add constraint chain_observations_status_check
      check (status in ('seen', 'credited', 'below_minimum', 'held', 'orphaned', 'dismissed'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // A dismissed transfer waits for an admin again.
  await sql`update chain_observations set status = case when amount = 0 and raw_amount > 0 and note like '%automatic credit bound%' then 'held' else 'below_minimum' end where status = 'dismissed'`.execute(
    db,
  );
  await sql`alter table chain_observations drop constraint chain_observations_status_check`.execute(db);
  await sql`
    alter table chain_observations add constraint chain_observations_status_check
      check (status in ('seen', 'credited', 'below_minimum', 'held', 'orphaned'))`.execute(db);
}
