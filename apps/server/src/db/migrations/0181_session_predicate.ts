import { sql, type Kysely } from 'kysely';

/**
 * One session predicate (issue 31). `live_sessions` is the rule: a session is live while its row
 * exists (revoking deletes it) and it has not expired. `app_session(token_hash)` is the live
 * session of a token hash with its user's status. Every reader of a session uses them: the
 * authentication hook (auth/sessions.ts), the wallet's and get-info's one statement, the
 * transfer's own check (`app_transfer_as`), and the list of a user's sessions (/security). The
 * view is simple and app_session a STABLE SQL function of one SELECT, so PostgreSQL inlines both
 * into the calling query (the same plan as the join they replace). What a status means for the answer (none: 401, 'blocked': 403)
 * is one table of codes, lib/db-errors.ts (US001, US002).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create view live_sessions as select * from sessions where expires_at > now()`.execute(db);
  await sql`
    create function app_session(p_token_hash text)
    returns table (session_id bigint, user_id bigint, status text, last_used_at timestamptz)
    language sql stable as $fn$
      select s.id, s.user_id, u.status, s.last_used_at
      from live_sessions s join users u on u.id = s.user_id
      where s.token_hash = p_token_hash
    $fn$`.execute(db);
  await sql`
    create or replace function app_transfer_as(p_token_hash text, p_sender bigint, p_username text, p_type text, p_amount bigint)
    returns table (transfer_id bigint, receiver_id bigint)
    language plpgsql as $fn$
    declare
      v_status text;
    begin
      select s.status into v_status from app_session(p_token_hash) s where s.user_id = p_sender;
      if v_status is null then raise exception 'invalid_session' using errcode = 'US001'; end if;
      if v_status = 'blocked' then raise exception 'account_blocked' using errcode = 'US002'; end if;
      return query select t.transfer_id, t.receiver_id from app_transfer(p_sender, p_username, p_type, p_amount) t;
    end
    $fn$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(LEGACY_TRANSFER_AS).execute(db);
  await sql`drop function app_session(text)`.execute(db);
  await sql`drop view live_sessions`.execute(db);
}

// The function as migration 0103 left it, by value (a migration never imports another).
const LEGACY_TRANSFER_AS = `CREATE OR REPLACE FUNCTION app_transfer_as(p_token_hash text, p_sender bigint, p_username text, p_type text, p_amount bigint)
 RETURNS TABLE(transfer_id bigint, receiver_id bigint)
 LANGUAGE plpgsql
AS $function$
    declare
      v_status text;
    begin
      select u.status into v_status from sessions s join users u on u.id = s.user_id
        where s.token_hash = p_token_hash and s.user_id = p_sender and s.expires_at > now();
      if v_status is null then raise exception 'invalid_session'; end if;
      if v_status = 'blocked' then raise exception 'account_blocked'; end if;
      return query select t.transfer_id, t.receiver_id from app_transfer(p_sender, p_username, p_type, p_amount) t;
    end
    $function$`;
