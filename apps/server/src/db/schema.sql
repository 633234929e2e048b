-- The live schema, as the migrations in ./migrations leave it: written by `npm run db:manifest`
-- from a fresh database migrated to the latest migration (PGlite). Do not edit: change the schema
-- with a new migration, then run `npm run db:manifest`. db/schema-snapshot.test.ts fails when this
-- file is not what the migrations make.

-- Tables

create table admin_audit_log (
  id bigint not null generated always as identity,
  admin_id bigint,
  action text not null,
  target_type text,
  target_id text,
  before jsonb,
  after jsonb,
  created_at timestamp with time zone not null default now(),
  constraint admin_audit_log_admin_id_fkey FOREIGN KEY (admin_id) REFERENCES users(id),
  constraint admin_audit_log_pkey PRIMARY KEY (id)
);

create table chain_blocks (
  network text not null,
  number bigint not null,
  hash text not null,
  constraint chain_blocks_pkey PRIMARY KEY (network, number)
);

create table chain_cursors (
  network text not null,
  scanned_to bigint not null,
  final_height bigint not null,
  head bigint,
  finalized_tag bigint,
  head_at timestamp with time zone,
  halted boolean not null default false,
  halted_reason text,
  halted_at timestamp with time zone,
  updated_at timestamp with time zone not null default now(),
  constraint chain_cursors_network_check CHECK ((network = ANY (ARRAY['bsc'::text, 'polygon'::text, 'tron'::text]))),
  constraint chain_cursors_pkey PRIMARY KEY (network)
);

create table chain_node_state (
  network text not null,
  head bigint,
  head_seen_at timestamp with time zone,
  answered_at timestamp with time zone,
  failing_since timestamp with time zone,
  error text,
  error_at timestamp with time zone,
  quorum_short_since timestamp with time zone,
  quorum_error text,
  constraint chain_node_state_pkey PRIMARY KEY (network)
);

create table chain_observations (
  id bigint not null generated always as identity,
  network text not null,
  block_number bigint not null,
  block_hash text not null,
  tx_hash text not null,
  log_index integer not null,
  token text not null,
  from_address text not null,
  to_address text not null,
  user_id bigint not null,
  raw_amount numeric(78,0) not null,
  amount bigint not null,
  status text not null default 'seen'::text,
  payment_id bigint,
  seen_at timestamp with time zone not null default now(),
  final_at timestamp with time zone,
  orphaned_at timestamp with time zone,
  credited_by bigint,
  note text,
  constraint chain_observations_amount_check CHECK ((amount >= 0)),
  constraint chain_observations_credited_by_fkey FOREIGN KEY (credited_by) REFERENCES users(id),
  constraint chain_observations_log_index_check CHECK ((log_index >= 0)),
  constraint chain_observations_network_block_hash_tx_hash_log_index_key UNIQUE (network, block_hash, tx_hash, log_index),
  constraint chain_observations_network_check CHECK ((network = ANY (ARRAY['bsc'::text, 'polygon'::text, 'tron'::text]))),
  constraint chain_observations_payment_id_fkey FOREIGN KEY (payment_id) REFERENCES payments(id),
  constraint chain_observations_pkey PRIMARY KEY (id),
  constraint chain_observations_raw_amount_check CHECK ((raw_amount >= (0)::numeric)),
  constraint chain_observations_status_check CHECK ((status = ANY (ARRAY['seen'::text, 'credited'::text, 'below_minimum'::text, 'held'::text, 'orphaned'::text, 'dismissed'::text]))),
  constraint chain_observations_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id)
);

create table custody_accounts (
  user_id bigint not null,
  idx integer not null,
  created_at timestamp with time zone not null default now(),
  constraint custody_accounts_idx_check CHECK ((idx >= 0)),
  constraint custody_accounts_idx_key UNIQUE (idx),
  constraint custody_accounts_pkey PRIMARY KEY (user_id),
  constraint custody_accounts_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id)
);

create table custody_addresses (
  family text not null,
  address text not null,
  user_id bigint not null,
  idx integer not null,
  xpub text not null,
  created_at timestamp with time zone not null default now(),
  key_fingerprint text,
  constraint custody_addresses_address_check CHECK ((address ~ '^0x[0-9a-f]{40}$'::text)),
  constraint custody_addresses_family_check CHECK ((family = ANY (ARRAY['evm'::text, 'tron'::text]))),
  constraint custody_addresses_key_fingerprint_check CHECK ((key_fingerprint ~ '^[0-9a-f]{40}$'::text)),
  constraint custody_addresses_pkey PRIMARY KEY (family, address),
  constraint custody_addresses_user_id_fkey FOREIGN KEY (user_id) REFERENCES custody_accounts(user_id)
);

create table custody_balance_runs (
  network text not null,
  at_block bigint,
  read_at timestamp with time zone,
  addresses integer not null default 0,
  duration_ms integer,
  error text,
  error_at timestamp with time zone,
  constraint custody_balance_runs_pkey PRIMARY KEY (network)
);

create table custody_balances (
  network text not null,
  address text not null,
  balance numeric(78,0) not null,
  at_block bigint,
  read_at timestamp with time zone not null,
  constraint custody_balances_balance_check CHECK ((balance >= (0)::numeric)),
  constraint custody_balances_pkey PRIMARY KEY (network, address)
);

create table custody_keys (
  family text not null,
  fingerprint text not null,
  xpub text not null,
  next_idx integer not null,
  created_at timestamp with time zone not null default now(),
  constraint custody_keys_family_check CHECK ((family = ANY (ARRAY['evm'::text, 'tron'::text]))),
  constraint custody_keys_fingerprint_check CHECK ((fingerprint ~ '^[0-9a-f]{40}$'::text)),
  constraint custody_keys_next_idx_check CHECK ((next_idx >= 0)),
  constraint custody_keys_pkey PRIMARY KEY (family, fingerprint)
);

create table custody_sweeps (
  id bigint not null generated always as identity,
  network text not null,
  address text not null,
  amount_raw numeric(78,0) not null,
  destination text not null,
  gas_tx text,
  token_tx text not null,
  block_number bigint not null,
  created_at timestamp with time zone not null default now(),
  constraint custody_sweeps_amount_raw_check CHECK ((amount_raw > (0)::numeric)),
  constraint custody_sweeps_destination_check CHECK ((destination = ANY (ARRAY['hot'::text, 'cold'::text]))),
  constraint custody_sweeps_pkey PRIMARY KEY (id),
  constraint custody_sweeps_token_tx_key UNIQUE (token_tx)
);

create table guess_budget (
  owner_key text not null,
  slots timestamp with time zone[] not null default '{}'::timestamp with time zone[],
  mailed_at timestamp with time zone,
  alerted_at timestamp with time zone,
  constraint guess_budget_pkey PRIMARY KEY (owner_key)
);

create table income_records (
  id bigint not null generated always as identity,
  user_id bigint not null,
  type smallint not null,
  amount bigint not null,
  note text not null,
  source_id text,
  for_date date,
  idempotency_key text not null,
  created_at timestamp with time zone not null default now(),
  constraint income_records_amount_check CHECK ((amount > 0)),
  constraint income_records_idempotency_key_key UNIQUE (idempotency_key),
  constraint income_records_pkey PRIMARY KEY (id),
  constraint income_records_type_check CHECK ((type = ANY (ARRAY[1, 2, 3])))
);

create table job_runs (
  name text not null,
  period text not null,
  started_at timestamp with time zone not null default now(),
  finished_at timestamp with time zone,
  result text,
  constraint job_runs_pkey PRIMARY KEY (name, period)
);

create table ledger_accounts (
  id bigint not null generated always as identity,
  user_id bigint,
  kind text not null,
  balance bigint not null default 0,
  created_at timestamp with time zone not null default now(),
  constraint ledger_accounts_owner_kind_key UNIQUE NULLS NOT DISTINCT (user_id, kind),
  constraint ledger_accounts_pkey PRIMARY KEY (id),
  constraint ledger_accounts_user_balance_nonneg CHECK (((user_id IS NULL) OR (balance >= 0)))
) with (fillfactor=45);

create table ledger_entries (
  id bigint not null generated always as identity,
  idempotency_key text not null,
  kind text not null,
  user_id bigint,
  memo text,
  created_at timestamp with time zone not null default now(),
  constraint ledger_entries_idempotency_key_key UNIQUE (idempotency_key),
  constraint ledger_entries_pkey PRIMARY KEY (id)
);

create table ledger_postings (
  id bigint not null generated always as identity,
  entry_id bigint not null,
  account_id bigint not null,
  amount bigint not null,
  stake_id bigint,
  constraint ledger_postings_amount_check CHECK ((amount <> 0)),
  constraint ledger_postings_pkey PRIMARY KEY (entry_id, id)
);

create table login_challenges (
  id bigint not null generated always as identity,
  user_id bigint not null,
  challenge_hash text not null,
  attempts integer not null default 0,
  used_at timestamp with time zone,
  created_at timestamp with time zone not null default now(),
  expires_at timestamp with time zone not null,
  constraint login_challenges_challenge_hash_key UNIQUE (challenge_hash),
  constraint login_challenges_pkey PRIMARY KEY (id),
  constraint login_challenges_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);

create table login_failures (
  email_key text not null,
  failures integer not null,
  last_failed_at timestamp with time zone not null,
  constraint login_failures_pkey PRIMARY KEY (email_key)
);

create table mail_outbox (
  id bigint not null generated always as identity,
  user_id bigint,
  to_email text not null,
  kind text not null,
  payload jsonb not null default '{}'::jsonb,
  status text not null default 'pending'::text,
  attempts integer not null default 0,
  next_attempt_at timestamp with time zone not null default now(),
  last_error text,
  created_at timestamp with time zone not null default now(),
  sent_at timestamp with time zone,
  message_token uuid not null default gen_random_uuid(),
  constraint mail_outbox_pkey PRIMARY KEY (id),
  constraint mail_outbox_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'sent'::text, 'failed'::text, 'expired'::text]))),
  constraint mail_outbox_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE SET NULL
);

create table otp_challenges (
  id bigint not null generated always as identity,
  user_id bigint,
  access_id_hash text not null,
  otp_hash text not null,
  attempts integer not null default 0,
  dead boolean not null default false,
  created_at timestamp with time zone not null default now(),
  expires_at timestamp with time zone not null,
  purpose text not null default 'verify'::text,
  used_at timestamp with time zone,
  owner_key text not null,
  decoy boolean not null default false,
  code_expires_at timestamp with time zone,
  constraint otp_challenges_access_id_hash_key UNIQUE (access_id_hash),
  constraint otp_challenges_decoy_check CHECK ((decoy OR (user_id IS NOT NULL))),
  constraint otp_challenges_pkey PRIMARY KEY (id),
  constraint otp_challenges_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);

create table payment_ipn_events (
  id bigint not null generated always as identity,
  provider text not null,
  provider_payment_id text not null,
  payment_status text not null,
  body_sha256 text not null,
  body jsonb not null,
  received_at timestamp with time zone not null default now(),
  constraint payment_ipn_events_body_key UNIQUE (provider, body_sha256),
  constraint payment_ipn_events_pkey PRIMARY KEY (id)
);

create table payments (
  id bigint not null generated always as identity,
  user_id bigint not null,
  provider text not null,
  provider_payment_id text not null,
  order_id text,
  kind text not null,
  pay_currency text not null,
  price_amount bigint not null,
  pay_amount bigint not null,
  pay_address text not null,
  window_end timestamp with time zone not null,
  status text not null default 'waiting'::text,
  actually_paid bigint not null default 0,
  confirmations integer not null default 0,
  tx_hash text,
  extra jsonb not null default '{}'::jsonb,
  credited_amount bigint not null default 0,
  parent_payment_id text,
  needs_review boolean not null default false,
  review_reason text,
  last_checked_at timestamp with time zone,
  created_at timestamp with time zone not null default now(),
  updated_at timestamp with time zone not null default now(),
  constraint payments_actually_paid_check CHECK ((actually_paid >= 0)),
  constraint payments_credited_range CHECK ((credited_amount >= 0)),
  constraint payments_kind_check CHECK ((kind = ANY (ARRAY['deposit'::text, 'demo'::text]))),
  constraint payments_pay_amount_check CHECK ((pay_amount >= 0)),
  constraint payments_pkey PRIMARY KEY (id),
  constraint payments_price_amount_check CHECK ((price_amount >= 0)),
  constraint payments_provider_check CHECK ((provider = ANY (ARRAY['sandbox'::text, 'nowpayments'::text, 'chain'::text]))),
  constraint payments_provider_payment_id_key UNIQUE (provider, provider_payment_id),
  constraint payments_status_check CHECK ((status = ANY (ARRAY['waiting'::text, 'confirming'::text, 'confirmed'::text, 'sending'::text, 'partially_paid'::text, 'finished'::text, 'failed'::text, 'refunded'::text, 'expired'::text]))),
  constraint payments_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id)
);

create table recovery_codes (
  id bigint not null generated always as identity,
  user_id bigint not null,
  code_hash text not null,
  used_at timestamp with time zone,
  created_at timestamp with time zone not null default now(),
  constraint recovery_codes_pkey PRIMARY KEY (id),
  constraint recovery_codes_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);

create table reward_levels (
  level integer not null,
  self_investment bigint not null,
  direct_investment bigint not null,
  reward bigint not null,
  constraint reward_levels_direct_investment_check CHECK ((direct_investment >= 0)),
  constraint reward_levels_level_check CHECK (((level >= 1) AND (level <= 20))),
  constraint reward_levels_pkey PRIMARY KEY (level),
  constraint reward_levels_reward_check CHECK ((reward > 0)),
  constraint reward_levels_self_investment_check CHECK ((self_investment >= 0))
);

create table sandbox_chain_events (
  id bigint not null generated always as identity,
  chain_payment_id bigint not null,
  kind text not null,
  due_at timestamp with time zone not null,
  processed_at timestamp with time zone,
  created_at timestamp with time zone not null default now(),
  constraint sandbox_chain_events_chain_payment_id_fkey FOREIGN KEY (chain_payment_id) REFERENCES sandbox_chain_payments(id),
  constraint sandbox_chain_events_kind_check CHECK ((kind = ANY (ARRAY['confirm'::text, 'settle'::text]))),
  constraint sandbox_chain_events_pkey PRIMARY KEY (id)
);

create table sandbox_chain_payments (
  id bigint not null generated always as identity,
  order_id text not null,
  pay_currency text not null,
  pay_address text not null,
  price_amount bigint not null,
  pay_amount bigint not null,
  valid_until timestamp with time zone not null,
  received bigint not null default 0,
  tx_hash text,
  last_transfer_at timestamp with time zone,
  confirmed_at timestamp with time zone,
  settled_at timestamp with time zone,
  created_at timestamp with time zone not null default now(),
  constraint sandbox_chain_payments_pay_address_key UNIQUE (pay_address),
  constraint sandbox_chain_payments_pkey PRIMARY KEY (id)
);

create table sessions (
  id bigint not null generated always as identity,
  user_id bigint not null,
  token_hash text not null,
  created_at timestamp with time zone not null default now(),
  expires_at timestamp with time zone not null,
  last_used_at timestamp with time zone,
  ip text,
  user_agent text,
  constraint sessions_pkey PRIMARY KEY (id),
  constraint sessions_token_hash_key UNIQUE (token_hash),
  constraint sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);

create table settings (
  id integer not null default 1,
  roi_income_percentage numeric(12,6) not null default 0.5,
  stake_cap_percentage numeric(12,6) not null default 200,
  direct_referral_percentage numeric(12,6) not null default 5,
  withdrawal_fee_percentage numeric(12,6) not null default 5,
  maintenance_mode boolean not null default false,
  updated_at timestamp with time zone not null default now(),
  constraint settings_id_check CHECK ((id = 1)),
  constraint settings_pkey PRIMARY KEY (id)
);

create table signer_contacts (
  id smallint not null default 1,
  last_contact_at timestamp with time zone not null,
  limits jsonb not null default '[]'::jsonb,
  hot jsonb not null default '[]'::jsonb,
  constraint signer_contacts_id_check CHECK ((id = 1)),
  constraint signer_contacts_pkey PRIMARY KEY (id)
);

create table social_identities (
  id bigint not null generated always as identity,
  user_id bigint not null,
  provider text not null,
  subject text not null,
  email text,
  created_at timestamp with time zone not null default now(),
  constraint social_identities_pkey PRIMARY KEY (id),
  constraint social_identities_provider_subject_key UNIQUE (provider, subject),
  constraint social_identities_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);

create table social_logins (
  id bigint not null generated always as identity,
  state_hash text not null,
  provider text not null,
  nonce text not null,
  code_verifier text not null,
  ref text,
  used boolean not null default false,
  created_at timestamp with time zone not null default now(),
  expires_at timestamp with time zone not null,
  constraint social_logins_pkey PRIMARY KEY (id),
  constraint social_logins_state_hash_key UNIQUE (state_hash)
);

create table social_signups (
  id bigint not null generated always as identity,
  cookie_hash text not null,
  provider text not null,
  subject text not null,
  email text not null,
  name text not null,
  username text not null,
  email_verified boolean not null default false,
  user_id bigint,
  completed_at timestamp with time zone,
  created_at timestamp with time zone not null default now(),
  expires_at timestamp with time zone not null,
  constraint social_signups_cookie_hash_key UNIQUE (cookie_hash),
  constraint social_signups_pkey PRIMARY KEY (id),
  constraint social_signups_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE SET NULL
);

create table stakes (
  id bigint not null generated always as identity,
  user_id bigint not null,
  amount bigint not null,
  daily_rate numeric(12,6) not null,
  cap_percentage numeric(12,6) not null,
  roi_paid bigint not null default 0,
  status text not null default 'active'::text,
  start_date date not null,
  last_roi_date date,
  created_at timestamp with time zone not null default now(),
  constraint stakes_amount_check CHECK ((amount > 0)),
  constraint stakes_pkey PRIMARY KEY (id),
  constraint stakes_roi_paid_check CHECK ((roi_paid >= 0)),
  constraint stakes_status_check CHECK ((status = ANY (ARRAY['active'::text, 'completed'::text]))),
  constraint stakes_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id)
) with (fillfactor=45);

create table support_ticket_replies (
  id bigint not null generated always as identity,
  ticket_id bigint not null,
  author text not null,
  author_id bigint not null,
  message text not null,
  created_at timestamp with time zone not null default now(),
  constraint support_ticket_replies_author_check CHECK ((author = ANY (ARRAY['user'::text, 'admin'::text]))),
  constraint support_ticket_replies_author_id_fkey FOREIGN KEY (author_id) REFERENCES users(id),
  constraint support_ticket_replies_pkey PRIMARY KEY (id),
  constraint support_ticket_replies_ticket_id_fkey FOREIGN KEY (ticket_id) REFERENCES support_tickets(id)
);

create table support_tickets (
  id bigint not null generated always as identity,
  user_id bigint not null,
  type text not null,
  message text not null,
  status text not null default 'open'::text,
  admin_remark text,
  closed_by bigint,
  closed_at timestamp with time zone,
  created_at timestamp with time zone not null default now(),
  constraint support_tickets_closed_by_fkey FOREIGN KEY (closed_by) REFERENCES users(id),
  constraint support_tickets_pkey PRIMARY KEY (id),
  constraint support_tickets_status_check CHECK ((status = ANY (ARRAY['open'::text, 'answered'::text, 'closed'::text]))),
  constraint support_tickets_type_check CHECK ((type = ANY (ARRAY['general'::text, 'technical'::text, 'withdrawal'::text, 'deposit'::text, 'staking'::text]))),
  constraint support_tickets_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id)
);

create table team_direct (
  user_id bigint not null,
  directs integer not null default 0,
  direct_business bigint not null default 0,
  constraint team_stats_pkey PRIMARY KEY (user_id),
  constraint team_stats_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id)
);

create table team_network (
  user_id bigint not null,
  network_users integer not null default 0,
  network_active_users integer not null default 0,
  network_business bigint not null default 0,
  constraint team_network_pkey PRIMARY KEY (user_id),
  constraint team_network_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id)
);

create table team_pending (
  id bigint not null generated always as identity,
  anchor bigint not null,
  users integer not null default 0,
  active_users integer not null default 0,
  business bigint not null default 0,
  created_at timestamp with time zone not null default now(),
  constraint team_pending_pkey PRIMARY KEY (id)
);

create table team_tree (
  user_id bigint not null,
  depth integer not null,
  jumps bigint[] not null,
  constraint team_tree_pkey PRIMARY KEY (user_id),
  constraint team_tree_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id)
);

create table transfers (
  id bigint not null generated always as identity,
  sender_id bigint not null,
  receiver_id bigint not null,
  type text not null,
  amount bigint not null,
  created_at timestamp with time zone not null default now(),
  constraint transfers_amount_check CHECK ((amount > 0)),
  constraint transfers_check CHECK ((sender_id <> receiver_id)),
  constraint transfers_pkey PRIMARY KEY (id),
  constraint transfers_receiver_id_fkey FOREIGN KEY (receiver_id) REFERENCES users(id),
  constraint transfers_sender_id_fkey FOREIGN KEY (sender_id) REFERENCES users(id),
  constraint transfers_type_check CHECK ((type = ANY (ARRAY['deposit'::text, 'withdraw'::text])))
);

create table user_totals (
  user_id bigint not null,
  total_deposited bigint not null default 0,
  total_staked bigint not null default 0,
  total_withdrawn bigint not null default 0,
  roi_income bigint not null default 0,
  referral_income bigint not null default 0,
  reward_income bigint not null default 0,
  updated_at timestamp with time zone not null default now(),
  constraint user_totals_pkey PRIMARY KEY (user_id)
) with (fillfactor=45);

create table users (
  id bigint not null generated always as identity,
  name text not null,
  email text not null,
  username text not null,
  password_hash text,
  referrer_id bigint,
  status text not null default 'inactive'::text,
  is_admin boolean not null default false,
  email_verified_at timestamp with time zone,
  active_date date,
  eligible_level integer not null default 0,
  avatar text,
  created_at timestamp with time zone not null default now(),
  updated_at timestamp with time zone not null default now(),
  totp_secret_enc text,
  totp_enabled_at timestamp with time zone,
  totp_last_step bigint,
  failed_logins integer not null default 0,
  removed_at timestamp with time zone,
  constraint users_pkey PRIMARY KEY (id),
  constraint users_referrer_id_fkey FOREIGN KEY (referrer_id) REFERENCES users(id),
  constraint users_status_check CHECK ((status = ANY (ARRAY['inactive'::text, 'active'::text, 'blocked'::text]))),
  constraint users_username_key UNIQUE (username)
);

create table withdrawals (
  id bigint not null generated always as identity,
  user_id bigint not null,
  amount bigint not null,
  fee bigint not null,
  receive_amount bigint not null,
  network text not null,
  wallet_address text not null,
  token text not null default 'USDT'::text,
  status text not null default 'pending'::text,
  tx_hash text,
  reject_reason text,
  processed_by bigint,
  processed_at timestamp with time zone,
  created_at timestamp with time zone not null default now(),
  payout_nonce bigint,
  payout_note text,
  approved_by bigint,
  approved_at timestamp with time zone,
  sent_at timestamp with time zone,
  constraint withdrawals_amount_check CHECK ((amount > 0)),
  constraint withdrawals_approved_by_fkey FOREIGN KEY (approved_by) REFERENCES users(id),
  constraint withdrawals_check CHECK (((fee + receive_amount) = amount)),
  constraint withdrawals_fee_check CHECK ((fee >= 0)),
  constraint withdrawals_network_check CHECK ((network = ANY (ARRAY['POLYGON'::text, 'BSC'::text, 'TRON'::text]))),
  constraint withdrawals_pkey PRIMARY KEY (id),
  constraint withdrawals_processed_by_fkey FOREIGN KEY (processed_by) REFERENCES users(id),
  constraint withdrawals_receive_amount_check CHECK ((receive_amount > 0)),
  constraint withdrawals_sent_has_nonce CHECK (((status <> 'sent'::text) OR ((payout_nonce IS NOT NULL) AND (tx_hash IS NOT NULL)))),
  constraint withdrawals_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'approved'::text, 'sent'::text, 'completed'::text, 'rejected'::text]))),
  constraint withdrawals_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id)
);


-- Indexes (beside those of primary keys and unique constraints above)

CREATE INDEX admin_audit_log_created_idx ON admin_audit_log USING btree (created_at DESC);
CREATE INDEX chain_observations_open_idx ON chain_observations USING btree (network, block_number) WHERE (status = 'seen'::text);
CREATE INDEX chain_observations_payment_idx ON chain_observations USING btree (payment_id) WHERE (payment_id IS NOT NULL);
CREATE INDEX chain_observations_tx_idx ON chain_observations USING btree (network, tx_hash);
CREATE INDEX chain_observations_user_idx ON chain_observations USING btree (user_id, seen_at DESC);
CREATE UNIQUE INDEX custody_addresses_key_idx_key ON custody_addresses USING btree (family, COALESCE(key_fingerprint, xpub), idx);
CREATE UNIQUE INDEX custody_addresses_key_user_key ON custody_addresses USING btree (family, COALESCE(key_fingerprint, xpub), user_id);
CREATE INDEX custody_addresses_user_idx ON custody_addresses USING btree (user_id, family);
CREATE INDEX custody_balances_holding ON custody_balances USING btree (network, address) WHERE (balance > (0)::numeric);
CREATE INDEX income_records_user_type_idx ON income_records USING btree (user_id, type, created_at DESC, id DESC);
CREATE INDEX ledger_entries_user_kind_idx ON ledger_entries USING btree (user_id, kind, created_at DESC, id DESC);
CREATE INDEX ledger_postings_account_id_idx ON ledger_postings USING btree (account_id);
CREATE INDEX ledger_postings_stake_idx ON ledger_postings USING btree (stake_id) INCLUDE (amount) WHERE (stake_id IS NOT NULL);
CREATE INDEX login_challenges_expires_at_idx ON login_challenges USING btree (expires_at);
CREATE INDEX login_failures_last_failed_at_idx ON login_failures USING btree (last_failed_at);
CREATE INDEX mail_outbox_due_idx ON mail_outbox USING btree (next_attempt_at) WHERE (status = 'pending'::text);
CREATE INDEX otp_challenges_expires_at_idx ON otp_challenges USING btree (expires_at);
CREATE INDEX otp_challenges_owner_key_idx ON otp_challenges USING btree (owner_key, id);
CREATE INDEX otp_challenges_user_id_idx ON otp_challenges USING btree (user_id);
CREATE INDEX payment_ipn_events_payment_idx ON payment_ipn_events USING btree (provider, provider_payment_id);
CREATE INDEX payments_open_idx ON payments USING btree (last_checked_at NULLS FIRST) WHERE (status = ANY (ARRAY['waiting'::text, 'confirming'::text, 'confirmed'::text, 'sending'::text]));
CREATE INDEX payments_order_id_idx ON payments USING btree (order_id) WHERE (order_id IS NOT NULL);
CREATE INDEX payments_review_idx ON payments USING btree (created_at DESC) WHERE needs_review;
CREATE INDEX payments_user_id_idx ON payments USING btree (user_id, created_at DESC, id DESC);
CREATE INDEX recovery_codes_user_id_idx ON recovery_codes USING btree (user_id);
CREATE INDEX sandbox_chain_events_due_idx ON sandbox_chain_events USING btree (due_at) WHERE (processed_at IS NULL);
CREATE INDEX sessions_expires_at_idx ON sessions USING btree (expires_at);
CREATE INDEX sessions_user_id_idx ON sessions USING btree (user_id);
CREATE INDEX social_identities_user_id_idx ON social_identities USING btree (user_id);
CREATE INDEX stakes_active_user_idx ON stakes USING btree (user_id, id) WHERE (status = 'active'::text);
CREATE INDEX stakes_user_id_idx ON stakes USING btree (user_id, created_at DESC);
CREATE INDEX support_ticket_replies_ticket_idx ON support_ticket_replies USING btree (ticket_id, id);
CREATE INDEX support_tickets_status_idx ON support_tickets USING btree (status, created_at DESC);
CREATE INDEX support_tickets_user_id_idx ON support_tickets USING btree (user_id, created_at DESC);
CREATE INDEX transfers_receiver_idx ON transfers USING btree (receiver_id, created_at DESC);
CREATE INDEX transfers_sender_idx ON transfers USING btree (sender_id, created_at DESC);
CREATE UNIQUE INDEX users_email_lower_key ON users USING btree (lower(email));
CREATE INDEX users_referrer_id_idx ON users USING btree (referrer_id);
CREATE INDEX users_unverified_idx ON users USING btree (created_at) WHERE (email_verified_at IS NULL);
CREATE UNIQUE INDEX withdrawals_live_nonce ON withdrawals USING btree (network, payout_nonce) WHERE (status = 'sent'::text);
CREATE INDEX withdrawals_payout_queue ON withdrawals USING btree (id) WHERE (status = ANY (ARRAY['approved'::text, 'sent'::text]));
CREATE INDEX withdrawals_status_idx ON withdrawals USING btree (status, created_at DESC);
CREATE INDEX withdrawals_user_idx ON withdrawals USING btree (user_id, created_at DESC);

-- Views

create view live_sessions as
 SELECT id,
    user_id,
    token_hash,
    created_at,
    expires_at,
    last_used_at,
    ip,
    user_agent
   FROM sessions
  WHERE expires_at > now();

create view team_stats as
 SELECT d.user_id,
    d.directs,
    d.direct_business,
    (n.network_users + COALESCE(p.users, 0::bigint))::integer AS network_users,
    (n.network_active_users + COALESCE(p.active, 0::bigint))::integer AS network_active_users,
    (n.network_business::numeric + COALESCE(p.business, 0::numeric))::bigint AS network_business
   FROM team_direct d
     JOIN team_network n ON n.user_id = d.user_id
     LEFT JOIN LATERAL ( SELECT sum(q.users) AS users,
            sum(q.active_users) AS active,
            sum(q.business) AS business
           FROM team_pending q
          WHERE team_covers(d.user_id, q.anchor)) p ON true;


-- Functions

CREATE OR REPLACE FUNCTION app_balance_guard_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      if exists (select 1 from new_rows n where n.balance <> 0) then
        raise exception 'an account starts at zero: ledger_accounts.balance is written only by app_post_many' using errcode = 'UL003';
      end if;
      return null;
    end $function$;

CREATE OR REPLACE FUNCTION app_balance_guard_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      -- Set by app_post_many around its one UPDATE, cleared after it (a transaction-local setting:
      -- an error rolls it back too). balance-writers.test.ts lets no other code set it.
      if current_setting('app.ledger_post', true) is distinct from 'on' then
        raise exception 'ledger_accounts.balance is written only by app_post_many' using errcode = 'UL003';
      end if;
      return null;
    end $function$;

CREATE OR REPLACE FUNCTION app_post_many(p_keys text[], p_kinds text[], p_users bigint[], p_memos text[], p_entry integer[], p_acc_users bigint[], p_acc_kinds text[], p_amounts bigint[], p_stakes bigint[])
 RETURNS TABLE(o_ord integer, o_entry_id bigint)
 LANGUAGE plpgsql
AS $function$
    declare
      v_n int := coalesce(cardinality(p_keys), 0);
      v_legs int := coalesce(cardinality(p_entry), 0);
      v_good int;
      v_entries int;
      v_keys int;
      v_groups int;
      v_zero boolean;
      v_ords int[];
      v_ids bigint[];
      v_acc bigint[];
      v_acc_users bigint[];
      v_acc_kinds text[];
      v_deltas bigint[];
      v_want int;
      v_rows int;
      v_flag text;
      v_plan text := current_setting('plan_cache_mode');
      v_seqscan text := current_setting('enable_seqscan');
    begin
      if v_n = 0 then return; end if;
      perform set_config('plan_cache_mode', case when v_legs <= 32 then 'force_generic_plan' else 'force_custom_plan' end, true);
      if v_legs <= 32 then perform set_config('enable_seqscan', 'off', true); end if;
      if cardinality(p_kinds) <> v_n or cardinality(p_users) <> v_n or cardinality(p_memos) <> v_n or cardinality(p_acc_users) <> v_legs
          or cardinality(p_acc_kinds) <> v_legs or cardinality(p_amounts) <> v_legs or cardinality(p_stakes) <> v_legs then
        raise exception 'app_post_many: arrays of different lengths' using errcode = 'UL002';
      end if;
      -- Balanced: every entry 1..n has two or more non-zero legs once legs on the same account
      -- and stake are merged, summing to zero; every key is given once. (v_groups = v_legs and no
      -- zero leg: there is nothing to merge.)
      select count(*) filter (where g.legs >= 2 and g.total = 0 and g.e between 1 and v_n), count(*),
        coalesce(sum(g.groups), 0), coalesce(bool_or(g.zero), false), (select count(distinct k) from unnest(p_keys) k)
      into v_good, v_entries, v_groups, v_zero, v_keys
      from (
        select l.e, count(*) filter (where l.amount <> 0) as legs, sum(l.amount) as total, count(*) as groups, bool_or(l.amount = 0) as zero
        from (
          select x.e, sum(x.a) as amount from unnest(p_entry, p_acc_users, p_acc_kinds, p_amounts, p_stakes) x(e, u, k, a, s)
          group by x.e, x.u, x.k, x.s) l
        group by l.e) g;
      if v_good <> v_n or v_entries <> v_n or v_keys <> v_n then
        raise exception 'ledger entry % does not balance or has fewer than two postings (or a key is given twice)', (
          select p_keys[i] from generate_subscripts(p_keys, 1) i
          where (select count(*) filter (where l.a <> 0) < 2 or coalesce(sum(l.a), 0) <> 0
                 from (select sum(x.a) as a from unnest(p_entry, p_acc_users, p_acc_kinds, p_amounts, p_stakes) x(e, u, k, a, s)
                       where x.e = i group by x.u, x.k, x.s) l)
          limit 1) using errcode = 'UL002';
      end if;

      -- Lock order 1: the users of the entries and accounts, key-share in id order (the lock a
      -- reference takes, up front so no user row is locked after an account). Then idempotency:
      -- entries whose key exists are skipped whole.
      with lk as (
        select 1 from users u where u.id = any(array(select unnest(p_users) union select unnest(p_acc_users))) order by u.id for key share),
      ins as (
        insert into ledger_entries (idempotency_key, kind, user_id, memo)
        select x.k, x.kd, x.u, x.m from unnest(p_keys, p_kinds, p_users, p_memos) x(k, kd, u, m), (select count(*) from lk) o
        on conflict (idempotency_key) do nothing
        returning id, idempotency_key)
      select array_agg(x.ord::int), array_agg(ins.id) into v_ords, v_ids
      from ins join unnest(p_keys) with ordinality x(k, ord) on x.k = ins.idempotency_key;
      if v_ords is null then perform set_config('plan_cache_mode', v_plan, true); perform set_config('enable_seqscan', v_seqscan, true); return; end if;

      -- The accounts of the entries written, with the net change of each, found by one index
      -- probe each (a lateral lookup: never a scan of the table per account, whatever the
      -- planner's statistics say); an account used for the first time is created (at zero),
      -- then looked up again.
      for i in 1..2 loop
        with d as (
          select x.u, x.k, sum(x.a)::bigint as delta
          from unnest(p_entry, p_acc_users, p_acc_kinds, p_amounts) x(e, u, k, a)
          where cardinality(v_ords) = v_n or x.e = any(v_ords)
          group by x.u, x.k)
        select array_agg(a.id), array_agg(d.u), array_agg(d.k), array_agg(d.delta), (select count(*) from d)
        into v_acc, v_acc_users, v_acc_kinds, v_deltas, v_want
        from d cross join lateral (
          select a.id from ledger_accounts a where (a.user_id = d.u or (a.user_id is null and d.u is null)) and a.kind = d.k limit 1) a;
        exit when coalesce(cardinality(v_acc), 0) = v_want or i = 2;
        insert into ledger_accounts (user_id, kind)
        select x.u, x.k from unnest(p_acc_users, p_acc_kinds) x(u, k) group by x.u, x.k
        on conflict (user_id, kind) do nothing;
      end loop;
      if coalesce(cardinality(v_acc), 0) <> v_want then
        raise exception 'app_post_many: an account could not be found' using errcode = 'UL002';
      end if;

      -- Lock order 2: the accounts, system accounts first (by kind), then by user id and kind.
      perform 1 from ledger_accounts a where a.id = any(v_acc) order by a.user_id is not null, a.user_id, a.kind collate "C" for update;

      -- Conditional debit: a user account never goes below zero. The flag lets this one statement
      -- past the balance guard (app_balance_guard_update) and is cleared right after it.
      v_flag := set_config('app.ledger_post', 'on', true);
      update ledger_accounts a set balance = a.balance + x.d
      from unnest(v_acc, v_deltas) x(id, d)
      where a.id = x.id and (a.user_id is null or a.balance + x.d >= 0);
      get diagnostics v_rows = row_count;
      v_flag := set_config('app.ledger_post', '', true);
      if v_rows <> v_want then
        raise exception 'insufficient_balance' using errcode = 'UL001';
      end if;

      if v_groups = v_legs and not v_zero then
        -- Nothing to merge: one posting per leg.
        insert into ledger_postings (entry_id, account_id, amount, stake_id)
        select w.id, acc.id, x.a, x.s
        from unnest(p_entry, p_acc_users, p_acc_kinds, p_amounts, p_stakes) x(e, u, k, a, s)
        join unnest(v_ords, v_ids) w(e, id) on w.e = x.e
        join unnest(v_acc, v_acc_users, v_acc_kinds) acc(id, u, k) on coalesce(acc.u, 0) = coalesce(x.u, 0) and acc.k = x.k;
      else
        insert into ledger_postings (entry_id, account_id, amount, stake_id)
        select w.id, acc.id, sum(x.a), x.s
        from unnest(p_entry, p_acc_users, p_acc_kinds, p_amounts, p_stakes) x(e, u, k, a, s)
        join unnest(v_ords, v_ids) w(e, id) on w.e = x.e
        join unnest(v_acc, v_acc_users, v_acc_kinds) acc(id, u, k) on coalesce(acc.u, 0) = coalesce(x.u, 0) and acc.k = x.k
        group by w.id, acc.id, x.s
        having sum(x.a) <> 0;
      end if;

      perform set_config('plan_cache_mode', v_plan, true);
      perform set_config('enable_seqscan', v_seqscan, true);
      for i in 1..cardinality(v_ords) loop
        o_ord := v_ords[i];
        o_entry_id := v_ids[i];
        return next;
      end loop;
    end
    $function$;

CREATE OR REPLACE FUNCTION app_ref_accounts_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      if exists (select 1 from old_rows o where exists (select 1 from ledger_postings p where p.account_id = o.id)) then
        raise exception 'a deleted ledger account still has postings' using errcode = 'foreign_key_violation';
      end if;
      return null;
    end $function$;

CREATE OR REPLACE FUNCTION app_ref_entries_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      if exists (select 1 from old_rows o where exists (select 1 from ledger_postings p where p.entry_id = o.id)) then
        raise exception 'a deleted ledger entry still has postings' using errcode = 'foreign_key_violation';
      end if;
      return null;
    end $function$;

CREATE OR REPLACE FUNCTION app_ref_immutable()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      raise exception 'a reference of % cannot change', tg_table_name using errcode = 'foreign_key_violation';
    end $function$;

CREATE OR REPLACE FUNCTION app_ref_postings_check()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    declare v_me xid := pg_current_xact_id()::xid; v_want bigint; v_found bigint; v_others bigint; v_locked bigint;
    begin
      
      select count(*) into v_want from (select distinct n.entry_id from new_rows n) x;
      select count(*), count(*) filter (where r.xmin <> v_me) into v_found, v_others
        from ledger_entries r where r.id in (select n.entry_id from new_rows n);
      if v_others > 0 then
        select count(*) into v_locked from (
          select 1 from ledger_entries r where r.id in (select n.entry_id from new_rows n) and r.xmin <> v_me order by r.id for key share of r) x;
      else
        v_locked := 0;
      end if;
      if v_found <> v_want or v_locked <> v_others then
        raise exception 'a posting references a ledger entry that does not exist' using errcode = 'foreign_key_violation';
      end if;
      
      select count(*) into v_want from (select distinct n.account_id from new_rows n) x;
      select count(*), count(*) filter (where r.xmin <> v_me) into v_found, v_others
        from ledger_accounts r where r.id in (select n.account_id from new_rows n);
      if v_others > 0 then
        select count(*) into v_locked from (
          select 1 from ledger_accounts r where r.id in (select n.account_id from new_rows n) and r.xmin <> v_me order by r.id for key share of r) x;
      else
        v_locked := 0;
      end if;
      if v_found <> v_want or v_locked <> v_others then
        raise exception 'a posting references a ledger account that does not exist' using errcode = 'foreign_key_violation';
      end if;
      return null;
    end $function$;

CREATE OR REPLACE FUNCTION app_ref_users_check()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    declare v_want bigint; v_have bigint;
    begin
      select count(distinct n.user_id) into v_want from new_rows n where n.user_id is not null;
      if v_want = 0 then return null; end if;
      select count(*) into v_have
      from (select distinct n.user_id from new_rows n where n.user_id is not null order by n.user_id) d
      cross join lateral (select 1 from users u where u.id = d.user_id for key share of u) l;
      if v_have <> v_want then
        raise exception 'insert on % references a user that does not exist', tg_table_name using errcode = 'foreign_key_violation';
      end if;
      return null;
    end $function$;

CREATE OR REPLACE FUNCTION app_ref_users_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    begin
      if exists (select 1 from old_rows o where exists (select 1 from ledger_entries e where e.user_id = o.id)
          or exists (select 1 from income_records r where r.user_id = o.id)
          or exists (select 1 from ledger_accounts a where a.user_id = o.id)
          or exists (select 1 from user_totals t where t.user_id = o.id)) then
        raise exception 'a deleted user is still referenced by the ledger' using errcode = 'foreign_key_violation';
      end if;
      return null;
    end $function$;

CREATE OR REPLACE FUNCTION app_roi_chunk_part(p_after bigint, p_date date, p_limit integer, p_lock boolean, p_part integer, p_parts integer)
 RETURNS TABLE(o_last_id bigint, o_stakes integer, o_credits integer, o_total bigint, o_completed integer)
 LANGUAGE plpgsql
 SET jit TO 'off'
 SET plan_cache_mode TO 'force_custom_plan'
 SET enable_mergejoin TO 'off'
AS $function$
    declare
      v_sys_kind text := case when p_part = 0 then 'system:roi_expense' else 'system:roi_expense:' || p_part end;
      v_ids bigint[];
      v_last bigint;
      -- the chunk's stake-days (stake, user, day, credit, the entry of its user and day)
      d_stake bigint[];
      d_user bigint[];
      d_day date[];
      d_credit bigint[];
      d_entry int[];
      -- per stake: what the chunk plans for it (all its due days, written or not)
      s_id bigint[];
      s_per_day bigint[];
      s_base date[];
      s_cap bigint[];
      s_planned bigint[];
      s_last_day date[];
      -- the entries, one per user and day
      e_keys text[];
      e_users bigint[];
      e_memos text[];
      e_totals bigint[];
      v_n int;
      v_written int[];
    begin
      if p_lock then perform pg_advisory_xact_lock(7402001 + p_part); end if;
      -- A chunk is whole users, after p_after in id order. The next p_limit × p_parts active stakes
      -- in (user, id) order are read from the index alone (stakes_active_user_idx: no sort, no
      -- table scan, whatever the table's size), then the rest of the last user's; of those, this
      -- part's due stakes are locked and read again under the lock. v_last, the last user seen,
      -- is the cursor, even when none of the chunk's stakes was due.
      select array_agg(c.id), max(c.user_id) into v_ids, v_last from (
        select s.id, s.user_id from stakes s
        where s.status = 'active' and s.user_id > p_after
        order by s.user_id, s.id limit p_limit * p_parts) c;
      if v_ids is null then
        return query select null::bigint, 0, 0, 0::bigint, 0;
        return;
      end if;
      v_ids := v_ids || array(select s.id from stakes s where s.status = 'active' and s.user_id = v_last and s.id <> all(v_ids));
      v_ids := array(
        select s.id from stakes s
        where s.id = any(v_ids) and s.status = 'active' and s.start_date < p_date
          and (s.last_roi_date is null or s.last_roi_date < p_date)
          and (p_parts = 1 or s.user_id % p_parts = p_part)
        order by s.id for update);
      if cardinality(v_ids) = 0 then
        return query select v_last, 0, 0, 0::bigint, 0;
        return;
      end if;

      -- Each stake-day's credit exactly as @app/core percentOf: (amount × rate in micro-units) /
      -- (100 × 1,000,000), truncated; the last one trimmed to the cap. k is the number of days due:
      -- up to p_date, and no more than the cap leaves room for. Every array below is aggregated in
      -- one pass over its rows, so its elements line up with each other's.
      with s as (
        select c.*, case when c.per_day > 0 and c.cap > c.roi_paid then least(p_date - c.base, (c.cap - c.roi_paid + c.per_day - 1) / c.per_day) else 0 end as k
        from (
          select st.id, st.user_id, st.roi_paid, coalesce(st.last_roi_date, st.start_date) as base,
            div(st.amount::numeric * st.daily_rate * 1000000, 100000000)::bigint as per_day,
            div(st.amount::numeric * st.cap_percentage * 1000000, 100000000)::bigint as cap
          from stakes st where st.id = any(v_ids)) c),
      d as (
        select s.id, s.user_id, s.base + g.n as day, least(s.per_day, s.cap - s.roi_paid - s.per_day * (g.n - 1)) as credit
        from s cross join lateral generate_series(1, s.k::int) g(n)),
      de as (select d.*, dense_rank() over (order by d.user_id, d.day)::int as entry from d)
      select x.*, y.* into d_stake, d_user, d_day, d_credit, d_entry, v_n, s_id, s_per_day, s_base, s_cap, s_planned, s_last_day
      from (select array_agg(de.id), array_agg(de.user_id), array_agg(de.day), array_agg(de.credit), array_agg(de.entry), coalesce(max(de.entry), 0) from de) x,
        (select array_agg(s.id), array_agg(s.per_day), array_agg(s.base), array_agg(s.cap),
           array_agg(s.roi_paid + case when s.k > 0 then least(s.per_day * s.k, s.cap - s.roi_paid) else 0 end),
           array_agg(case when s.k > 0 then s.base + s.k::int end)
         from s) y;

      if v_n > 0 then
        -- One entry per user and day, keyed by its first stake: roi:<stake>:<yyyy-mm-dd>.
        select array_agg('roi:' || g.first || ':' || to_char(g.day, 'YYYY-MM-DD') order by g.entry),
          array_agg(g.user_id order by g.entry),
          array_agg(case when g.n = 1 then 'ROI ' || to_char(g.day, 'YYYY-MM-DD') || ' on stake #' || g.first
            else 'ROI ' || to_char(g.day, 'YYYY-MM-DD') || ' on ' || g.n || ' stakes' end order by g.entry),
          array_agg(-g.total order by g.entry)
        into e_keys, e_users, e_memos, e_totals
        from (
          select x.entry, min(x.user_id) as user_id, min(x.day) as day, min(x.stake) as first, count(*) as n, sum(x.credit)::bigint as total
          from unnest(d_entry, d_user, d_day, d_stake, d_credit) x(entry, user_id, day, stake, credit)
          group by x.entry) g;
        -- A posting per stake-day to the user's income account, one per entry from the part's ROI expense.
        select array_agg(w.o_ord) into v_written
        from app_post_many(e_keys, array_fill('roi'::text, array[v_n]), e_users, e_memos,
          d_entry || array(select generate_series(1, v_n)),
          d_user || array_fill(null::bigint, array[v_n]),
          array_fill('income'::text, array[cardinality(d_entry)]) || array_fill(v_sys_kind, array[v_n]),
          d_credit || e_totals,
          d_stake || array_fill(null::bigint, array[v_n])) w;
      end if;

      -- Totals and the stakes' progress for exactly the entries written now (a racing or repeated
      -- run credits nothing twice); a stake that cannot earn still moves its last_roi_date on.
      return query
      with w as (
        select x.stake, x.user_id, x.credit
        from unnest(d_entry, d_stake, d_user, d_credit) x(entry, stake, user_id, credit)
        where cardinality(v_written) = v_n or x.entry in (select unnest(v_written))),
      pu as (select w.user_id, sum(w.credit)::bigint as amount from w group by w.user_id),
      ut as (
        insert into user_totals (user_id, roi_income) select pu.user_id, pu.amount from pu order by pu.user_id
        on conflict (user_id) do update set roi_income = user_totals.roi_income + excluded.roi_income, updated_at = now()),
      ps as (select w.stake as id, sum(w.credit)::bigint as paid_now from w group by w.stake),
      pl as (select * from unnest(s_id, s_per_day, s_base, s_cap, s_planned, s_last_day) p(id, per_day, base, cap, planned, last_day)),
      st as (
        update stakes x set roi_paid = x.roi_paid + coalesce(ps.paid_now, 0),
          last_roi_date = case when pl.per_day = 0 then p_date else coalesce(pl.last_day, pl.base) end,
          status = case when pl.planned >= pl.cap then 'completed' else x.status end
        from pl left join ps on ps.id = pl.id
        where x.id = pl.id and x.id = any(s_id)
        returning pl.planned >= pl.cap as done)
      select v_last, cardinality(v_ids), (select count(*) from w)::int,
        (select coalesce(sum(w.credit), 0) from w)::bigint, (select count(*) from st where st.done)::int;
    end
    $function$;

CREATE OR REPLACE FUNCTION app_session(p_token_hash text)
 RETURNS TABLE(session_id bigint, user_id bigint, status text, last_used_at timestamp with time zone)
 LANGUAGE sql
 STABLE
AS $function$
      select s.id, s.user_id, u.status, s.last_used_at
      from live_sessions s join users u on u.id = s.user_id
      where s.token_hash = p_token_hash
    $function$;

CREATE OR REPLACE FUNCTION app_transfer(p_sender bigint, p_username text, p_type text, p_amount bigint)
 RETURNS TABLE(transfer_id bigint, receiver_id bigint)
 LANGUAGE plpgsql
AS $function$
    declare
      v_receiver bigint;
      v_status text;
      v_verified timestamptz;
      v_transfer bigint;
      v_kind text := case when p_type = 'deposit' then 'deposit' else 'income' end;
    begin
      select u.id, u.status, u.email_verified_at into v_receiver, v_status, v_verified from users u where u.username = p_username;
      if v_receiver is null or v_status = 'blocked' then raise exception 'user_not_found' using errcode = 'UT001'; end if;
      if v_receiver = p_sender then raise exception 'self_transfer' using errcode = 'UT002'; end if;
      if v_verified is null then raise exception 'receiver_unverified' using errcode = 'UT003'; end if;
      -- Both users key-share locked in id order before the transfer row references them.
      perform 1 from users u where u.id in (p_sender, v_receiver) order by u.id for key share;
      insert into transfers (sender_id, receiver_id, type, amount) values (p_sender, v_receiver, p_type, p_amount) returning id into v_transfer;
      perform app_post_many(array['transfer:' || v_transfer], array['transfer'], array[p_sender], array['Transfer #' || v_transfer || ' to ' || p_username],
        array[1, 1], array[p_sender, v_receiver], array[v_kind, v_kind], array[-p_amount, p_amount], array[null, null]::bigint[]);
      return query select v_transfer, v_receiver;
    end
    $function$;

CREATE OR REPLACE FUNCTION app_transfer_as(p_token_hash text, p_sender bigint, p_username text, p_type text, p_amount bigint)
 RETURNS TABLE(transfer_id bigint, receiver_id bigint)
 LANGUAGE plpgsql
AS $function$
    declare
      v_status text;
    begin
      select s.status into v_status from app_session(p_token_hash) s where s.user_id = p_sender;
      if v_status is null then raise exception 'invalid_session' using errcode = 'US001'; end if;
      if v_status = 'blocked' then raise exception 'account_blocked' using errcode = 'US002'; end if;
      return query select t.transfer_id, t.receiver_id from app_transfer(p_sender, p_username, p_type, p_amount) t;
    end
    $function$;

CREATE OR REPLACE FUNCTION team_covers(p_x bigint, p_anchor bigint)
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE
AS $function$
    declare
      dx integer;
      da integer;
      j bigint[];
      diff integer;
      k integer := 0;
      cur bigint := p_anchor;
    begin
      if p_x = p_anchor then return true; end if;
      select depth into dx from team_tree where user_id = p_x;
      select depth, jumps into da, j from team_tree where user_id = p_anchor;
      if dx is null or da is null or da <= dx then return false; end if;
      diff := da - dx;
      while diff > 0 loop
        if (diff & 1) = 1 then
          cur := j[k + 1];
          if diff > 1 then select jumps into j from team_tree where user_id = cur; end if;
        end if;
        diff := diff >> 1;
        k := k + 1;
      end loop;
      return cur = p_x;
    end $function$;

CREATE OR REPLACE FUNCTION team_drain(p_limit integer, p_levels integer DEFAULT 1000)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
    declare
      a_anchor bigint[];
      a_users integer[];
      a_active integer[];
      a_business bigint[];
      n integer;
    begin
      if not pg_try_advisory_xact_lock(7402014) then return -1; end if;
      with d as (
        delete from team_pending where id in (select id from team_pending order by id limit p_limit)
        returning anchor, users, active_users, business
      ), g as (
        select anchor, sum(users)::integer as users, sum(active_users)::integer as active, sum(business)::bigint as business from d group by anchor
      )
      select array_agg(anchor), array_agg(users), array_agg(active), array_agg(business), count(*) into a_anchor, a_users, a_active, a_business, n from g;
      if n = 0 then return 0; end if;
      with recursive up(id, users, active, business, hops) as (
        select s.anchor, s.users, s.active, s.business, 1 from unnest(a_anchor, a_users, a_active, a_business) as s(anchor, users, active, business)
        union all
        select u.referrer_id, up.users, up.active, up.business, up.hops + 1
        from up join users u on u.id = up.id
        where u.referrer_id is not null and up.hops < p_levels
      ), tot as (
        select id, sum(users)::integer as users, sum(active)::integer as active, sum(business)::bigint as business from up group by id
      ), folded as (
        update team_network t set
          network_users = t.network_users + tot.users,
          network_active_users = t.network_active_users + tot.active,
          network_business = t.network_business + tot.business
        from tot where t.user_id = tot.id
      )
      insert into team_pending (anchor, users, active_users, business)
        select u.referrer_id, up.users, up.active, up.business from up join users u on u.id = up.id
        where up.hops = p_levels and u.referrer_id is not null;
      return n;
    end $function$;

CREATE OR REPLACE FUNCTION team_push(p_anchor bigint, p_directs integer, p_direct_business bigint, p_users integer, p_active integer, p_business bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
    begin
      if p_directs <> 0 or p_direct_business <> 0 then
        update team_direct set directs = directs + p_directs, direct_business = direct_business + p_direct_business where user_id = p_anchor;
      end if;
      if p_users <> 0 or p_active <> 0 or p_business <> 0 then
        perform team_tree_ensure(p_anchor);
        insert into team_pending (anchor, users, active_users, business) values (p_anchor, p_users, p_active, p_business);
      end if;
    end $function$;

CREATE OR REPLACE FUNCTION team_tree_ensure(p_user bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
    declare
      chain bigint[] := '{}';
      cur bigint := p_user;
      parent bigint;
      pd integer;
      pj bigint[];
      j bigint[];
      aj bigint[];
      k integer;
      i integer;
    begin
      loop
        perform 1 from team_tree where user_id = cur;
        exit when found;
        chain := chain || cur;
        select referrer_id into cur from users where id = cur;
        exit when cur is null or cardinality(chain) > 100000;
      end loop;
      for i in reverse cardinality(chain)..1 loop
        select referrer_id into parent from users where id = chain[i];
        pd := null;
        if parent is not null then select depth, jumps into pd, pj from team_tree where user_id = parent; end if;
        if pd is null then
          insert into team_tree values (chain[i], 0, '{}') on conflict do nothing;
        else
          j := array[parent];
          k := 1;
          aj := pj;
          -- jumps[k + 1] = (jumps[k]).jumps[k], while the ancestor has one that far.
          while cardinality(aj) >= k loop
            j := j || aj[k];
            select jumps into aj from team_tree where user_id = aj[k];
            k := k + 1;
          end loop;
          insert into team_tree values (chain[i], pd + 1, j) on conflict do nothing;
        end if;
      end loop;
    end $function$;

CREATE OR REPLACE FUNCTION team_tree_rebuild()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
    declare
      lvl integer := 1;
      n bigint;
    begin
      delete from team_tree;
      create temp table if not exists team_tree_jumps (id bigint not null, k integer not null, a bigint not null) on commit drop;
      truncate team_tree_jumps;
      insert into team_tree_jumps select id, 1, referrer_id from users where referrer_id is not null;
      loop
        analyze team_tree_jumps;
        insert into team_tree_jumps
          select x.id, lvl + 1, y.a from team_tree_jumps x join team_tree_jumps y on y.id = x.a and y.k = lvl where x.k = lvl;
        get diagnostics n = row_count;
        exit when n = 0;
        lvl := lvl + 1;
      end loop;
      insert into team_tree (user_id, depth, jumps)
        with recursive down(id, depth) as (
          select id, 0 from users where referrer_id is null
          union all
          select u.id, d.depth + 1 from users u join down d on u.referrer_id = d.id
        )
        select d.id, d.depth, coalesce(j.jumps, '{}') from down d
        left join (select id, array_agg(a order by k) as jumps from team_tree_jumps group by id) j on j.id = d.id;
      truncate team_tree_jumps;
    end $function$;


-- Triggers

CREATE TRIGGER income_records_user_ref AFTER INSERT ON income_records REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION app_ref_users_check();
CREATE TRIGGER income_records_user_ref_fixed BEFORE UPDATE OF user_id ON income_records FOR EACH ROW WHEN ((old.user_id IS DISTINCT FROM new.user_id)) EXECUTE FUNCTION app_ref_immutable();
CREATE TRIGGER ledger_accounts_balance_start AFTER INSERT ON ledger_accounts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION app_balance_guard_insert();
CREATE TRIGGER ledger_accounts_balance_writer BEFORE UPDATE OF balance ON ledger_accounts FOR EACH STATEMENT EXECUTE FUNCTION app_balance_guard_update();
CREATE TRIGGER ledger_accounts_id_fixed BEFORE UPDATE OF id ON ledger_accounts FOR EACH ROW WHEN ((old.id <> new.id)) EXECUTE FUNCTION app_ref_immutable();
CREATE TRIGGER ledger_accounts_refs AFTER DELETE ON ledger_accounts REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION app_ref_accounts_deleted();
CREATE TRIGGER ledger_accounts_user_ref AFTER INSERT ON ledger_accounts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION app_ref_users_check();
CREATE TRIGGER ledger_accounts_user_ref_fixed BEFORE UPDATE OF user_id ON ledger_accounts FOR EACH ROW WHEN ((old.user_id IS DISTINCT FROM new.user_id)) EXECUTE FUNCTION app_ref_immutable();
CREATE TRIGGER ledger_entries_id_fixed BEFORE UPDATE OF id ON ledger_entries FOR EACH ROW WHEN ((old.id <> new.id)) EXECUTE FUNCTION app_ref_immutable();
CREATE TRIGGER ledger_entries_refs AFTER DELETE ON ledger_entries REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION app_ref_entries_deleted();
CREATE TRIGGER ledger_entries_user_ref AFTER INSERT ON ledger_entries REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION app_ref_users_check();
CREATE TRIGGER ledger_entries_user_ref_fixed BEFORE UPDATE OF user_id ON ledger_entries FOR EACH ROW WHEN ((old.user_id IS DISTINCT FROM new.user_id)) EXECUTE FUNCTION app_ref_immutable();
CREATE TRIGGER ledger_postings_refs AFTER INSERT ON ledger_postings REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION app_ref_postings_check();
CREATE TRIGGER ledger_postings_refs_fixed BEFORE UPDATE OF entry_id, account_id ON ledger_postings FOR EACH ROW WHEN (((old.entry_id <> new.entry_id) OR (old.account_id <> new.account_id))) EXECUTE FUNCTION app_ref_immutable();
CREATE TRIGGER user_totals_user_ref AFTER INSERT ON user_totals REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION app_ref_users_check();
CREATE TRIGGER user_totals_user_ref_fixed BEFORE UPDATE OF user_id ON user_totals FOR EACH ROW WHEN ((old.user_id IS DISTINCT FROM new.user_id)) EXECUTE FUNCTION app_ref_immutable();
CREATE TRIGGER users_id_fixed BEFORE UPDATE OF id ON users FOR EACH ROW WHEN ((old.id <> new.id)) EXECUTE FUNCTION app_ref_immutable();
CREATE TRIGGER users_ledger_refs AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION app_ref_users_deleted();
