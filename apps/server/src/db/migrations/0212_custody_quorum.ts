import { sql, type Kysely } from 'kysely';

/**
 * Trust no single node (issue 49): a transfer is credited only once a quorum of the network's
 * endpoints confirmed it (docs/custody.md). While too few of them answer, deposits wait: when that
 * began and the last reason are kept per network, so health and the admin view say so once it
 * lasts longer than CHAIN_STALE_AFTER_S.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table chain_node_state add column quorum_short_since timestamptz, add column quorum_error text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table chain_node_state drop column quorum_short_since, drop column quorum_error`.execute(db);
}
