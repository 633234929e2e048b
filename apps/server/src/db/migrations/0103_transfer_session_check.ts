import { sql, type Kysely } from 'kysely';

/**
 * A transfer that checks its own session (issue 14, docs/decisions/2026-11-23-session-cache.md):
 * `app_transfer_as` reads the session of the request's token hash and the sender's status, then
 * runs app_transfer (migration 0100) in the same statement. The route's authentication may then
 * come from the per-process session cache without ever letting a revoked token (P0001
 * 'invalid_session', answered 401) or a blocked sender ('account_blocked', 403) move money: the
 * check and the transfer are one statement, one round trip.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function app_transfer_as(p_token_hash text, p_sender bigint, p_username text, p_type text, p_amount bigint)
    returns table (transfer_id bigint, receiver_id bigint)
    language plpgsql as $fn$
    declare
      v_status text;
    begin
      select u.status into v_status from sessions s join users u on u.id = s.user_id
        where s.token_hash = p_token_hash and s.user_id = p_sender and s.expires_at > now();
      if v_status is null then raise exception 'invalid_session'; end if;
      if v_status = 'blocked' then raise exception 'account_blocked'; end if;
      return query select t.transfer_id, t.receiver_id from app_transfer(p_sender, p_username, p_type, p_amount) t;
    end
    $fn$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function app_transfer_as(text, bigint, text, text, bigint)`.execute(db);
}
