CREATE OR REPLACE FUNCTION app_transfer(p_sender bigint, p_username text, p_type text, p_amount bigint)
 RETURNS TABLE(transfer_id bigint, receiver_id bigint)
 LANGUAGE plpgsql
AS $function$
    declare
      v_receiver bigint;
      v_status text;
      v_transfer bigint;
      v_entry bigint;
      v_from bigint;
      v_to bigint;
      v_kind text := case when p_type = 'deposit' then 'deposit' else 'income' end;
    begin
      select u.id, u.status into v_receiver, v_status from users u where u.username = p_username;
      if v_receiver is null or v_status = 'blocked' then raise exception 'user_not_found'; end if;
      if v_receiver = p_sender then raise exception 'self_transfer'; end if;
      perform 1 from users u where u.id in (p_sender, v_receiver) order by u.id for key share;
      insert into transfers (sender_id, receiver_id, type, amount) values (p_sender, v_receiver, p_type, p_amount) returning id into v_transfer;
      insert into ledger_entries (idempotency_key, kind, user_id, memo)
        values ('transfer:' || v_transfer, 'transfer', p_sender, 'Transfer #' || v_transfer || ' to ' || p_username) returning id into v_entry;
      insert into ledger_accounts (user_id, kind) values (v_receiver, v_kind) on conflict (user_id, kind) do nothing;
      perform 1 from ledger_accounts a where a.user_id in (p_sender, v_receiver) and a.kind = v_kind order by a.user_id for update;
      update ledger_accounts a set balance = a.balance - p_amount
        where a.user_id = p_sender and a.kind = v_kind and a.balance - p_amount >= 0 returning a.id into v_from;
      if v_from is null then raise exception 'insufficient_balance'; end if;
      update ledger_accounts a set balance = a.balance + p_amount where a.user_id = v_receiver and a.kind = v_kind returning a.id into v_to;
      insert into ledger_postings (entry_id, account_id, amount) values (v_entry, v_from, -p_amount), (v_entry, v_to, p_amount);
      return query select v_transfer, v_receiver;
    end
    $function$
;
