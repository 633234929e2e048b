import { sql, type Kysely } from 'kysely';

/**
 * Room on every page for a new version of each of its rows (issue 14, ROI speed). A ROI chunk
 * updates each of its stakes, and each of its users' income account and totals row, once in one
 * transaction; at fillfactor 80 (migration 0110) a page had room for the new versions of only a
 * quarter of its rows, so three updates in four were not HOT (measured in one 10,000-stake chunk:
 * 2,672 of 10,000 stake updates HOT, 2,514 of 10,001 account updates), each adding an entry to
 * every index of the table (stakes has three). Below half a page, every row of a page fits its next
 * version, and the versions a committed run left behind are pruned when the next run reads the page.
 * The tables grow about 1.8× (1,000,000 stakes: ~15 MB to ~27 MB).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['stakes', 'ledger_accounts', 'user_totals']) await sql`alter table ${sql.table(table)} set (fillfactor = 45)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['stakes', 'ledger_accounts', 'user_totals']) await sql`alter table ${sql.table(table)} set (fillfactor = 80)`.execute(db);
}
