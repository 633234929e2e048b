import { sql, type Kysely } from 'kysely';

/**
 * Unverified accounts hold no money (the mailbox wins for 10 USDT, docs/security.md).
 *
 * 1. `app_transfer` refuses a receiver whose e-mail is not verified (SQLSTATE UT003, 'This user has
 *    not verified their e-mail yet'), read from the receiver row the function already reads, in
 *    the transfer's one statement: no pre-read a race could pass. Made as an edit of the definition
 *    0180 left (the whole function reads in db/schema.sql); down() makes the reverse edit.
 * 2. `users.removed_at`: an unverified account that is replaced (or expires) but cannot be deleted,
 *    because the ledger keeps its history (it received money before this fix), stays as a row with
 *    no e-mail, password, sponsor or sign-in, marked removed (auth/unverified.ts).
 */
const SIGNATURE = 'app_transfer(bigint, text, text, bigint)';

const EDITS: [before: string, after: string][] = [
  ['      v_status text;\n', '      v_status text;\n      v_verified timestamptz;\n'],
  [
    '      select u.id, u.status into v_receiver, v_status from users u where u.username = p_username;\n',
    '      select u.id, u.status, u.email_verified_at into v_receiver, v_status, v_verified from users u where u.username = p_username;\n',
  ],
  [
    "      if v_receiver = p_sender then raise exception 'self_transfer' using errcode = 'UT002'; end if;\n",
    "      if v_receiver = p_sender then raise exception 'self_transfer' using errcode = 'UT002'; end if;\n" +
      "      if v_verified is null then raise exception 'receiver_unverified' using errcode = 'UT003'; end if;\n",
  ],
];

async function edit(db: Kysely<unknown>, direction: 'up' | 'down'): Promise<void> {
  const { rows } = await sql<{ def: string }>`select pg_get_functiondef(${SIGNATURE}::regprocedure) as def`.execute(db);
  let def = rows[0]!.def;
  for (const [before, after] of EDITS) {
    const [from, to] = direction === 'up' ? [before, after] : [after, before];
    // Each edit must find its text exactly once, or the function is not the one this migration knows.
    if (def.split(from).length !== 2) throw new Error(`0190: app_transfer does not hold ${JSON.stringify(from)} exactly once`);
    def = def.replace(from, to);
  }
  await sql.raw(def).execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await edit(db, 'up');
  await sql`alter table users add column removed_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users drop column removed_at`.execute(db);
  await edit(db, 'down');
}
