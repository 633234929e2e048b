CREATE OR REPLACE FUNCTION app_transfer_as(p_token_hash text, p_sender bigint, p_username text, p_type text, p_amount bigint)
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
    $function$
;
