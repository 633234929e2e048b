import type { Migration } from 'kysely/migration';
import * as m0001 from './migrations/0001_users';
import * as m0002 from './migrations/0002_sessions';
import * as m0003 from './migrations/0003_otp';
import * as m0010 from './migrations/0010_ledger';
import * as m0011 from './migrations/0011_staking_income';
import * as m0020 from './migrations/0020_team_transfers_withdrawals';
import * as m0030 from './migrations/0030_payments';
import * as m0031 from './migrations/0031_payment_ipn_events';
import * as m0032 from './migrations/0032_sandbox_chain';
import * as m0040 from './migrations/0040_support';
import * as m0050 from './migrations/0050_admin_audit';
import * as m0060 from './migrations/0060_social';
import * as m0070 from './migrations/0070_account_security';
import * as m0085 from './migrations/0085_sandbox_chain_events';
import * as m0100 from './migrations/0100_transfer_function';
import * as m0103 from './migrations/0103_transfer_session_check';
import * as m0110 from './migrations/0110_roi_function';
import * as m0120 from './migrations/0120_team_pending';
import * as m0130 from './migrations/0130_ledger_set_references';
import * as m0131 from './migrations/0131_roi_hot_updates';
import * as m0132 from './migrations/0132_roi_parts';
import * as m0133 from './migrations/0133_postings_key';
import * as m0134 from './migrations/0134_roi_income_insert';
import * as m0135 from './migrations/0135_postings_check_one_pass';
import * as m0136 from './migrations/0136_auth_decoys';
import * as m0137 from './migrations/0137_roi_income_on_ledger';
import * as m0140 from './migrations/0140_guess_budget';
import * as m0150 from './migrations/0150_mail_outbox_message_id';
import * as m0160 from './migrations/0160_support_answered';
import * as m0170 from './migrations/0170_custody';
import * as m0180 from './migrations/0180_one_posting_function';
import * as m0181 from './migrations/0181_session_predicate';
import * as m0182 from './migrations/0182_post_many_plans';
import * as m0190 from './migrations/0190_unverified_no_money';
import * as m0191 from './migrations/0191_deposits_credited_in_full';
import * as m0195 from './migrations/0195_custody_node_state';
import * as m0205 from './migrations/0205_custody_key_rotation';
import * as m0206 from './migrations/0206_custody_dismissed';
import * as m0210 from './migrations/0210_signer_payouts';
import * as m0211 from './migrations/0211_drop_app_post';
import * as m0212 from './migrations/0212_custody_quorum';
import * as m0213 from './migrations/0213_postings_by_stake';
import * as m0214 from './migrations/0214_post_many_index_probes';
import * as m0215 from './migrations/0215_user_refs_by_index';

/**
 * Every migration of ./migrations by its file name, in order: written by `npm run db:manifest`, checked
 * by migration-manifest.test.ts. Imported with the rest of the code instead of found on disk at each
 * start: a server or CLI process the tests start had Node strip 33 TypeScript files and load a second
 * copy of kysely for them, about 0.35 CPU-s a start.
 */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_users': m0001,
  '0002_sessions': m0002,
  '0003_otp': m0003,
  '0010_ledger': m0010,
  '0011_staking_income': m0011,
  '0020_team_transfers_withdrawals': m0020,
  '0030_payments': m0030,
  '0031_payment_ipn_events': m0031,
  '0032_sandbox_chain': m0032,
  '0040_support': m0040,
  '0050_admin_audit': m0050,
  '0060_social': m0060,
  '0070_account_security': m0070,
  '0085_sandbox_chain_events': m0085,
  '0100_transfer_function': m0100,
  '0103_transfer_session_check': m0103,
  '0110_roi_function': m0110,
  '0120_team_pending': m0120,
  '0130_ledger_set_references': m0130,
  '0131_roi_hot_updates': m0131,
  '0132_roi_parts': m0132,
  '0133_postings_key': m0133,
  '0134_roi_income_insert': m0134,
  '0135_postings_check_one_pass': m0135,
  '0136_auth_decoys': m0136,
  '0137_roi_income_on_ledger': m0137,
  '0140_guess_budget': m0140,
  '0150_mail_outbox_message_id': m0150,
  '0160_support_answered': m0160,
  '0170_custody': m0170,
  '0180_one_posting_function': m0180,
  '0181_session_predicate': m0181,
  '0182_post_many_plans': m0182,
  '0190_unverified_no_money': m0190,
  '0191_deposits_credited_in_full': m0191,
  '0195_custody_node_state': m0195,
  '0205_custody_key_rotation': m0205,
  '0206_custody_dismissed': m0206,
  '0210_signer_payouts': m0210,
  '0211_drop_app_post': m0211,
  '0212_custody_quorum': m0212,
  '0213_postings_by_stake': m0213,
  '0214_post_many_index_probes': m0214,
  '0215_user_refs_by_index': m0215,
};
