import type { Id, Micro, MicroDefault, Timestamp } from '../../db/types';

export interface LedgerAccountsTable {
  id: Id;
  user_id: bigint | null;
  kind: string;
  balance: MicroDefault;
  created_at: Timestamp;
}
export interface LedgerEntriesTable {
  id: Id;
  idempotency_key: string;
  kind: string;
  user_id: bigint | null;
  memo: string | null;
  created_at: Timestamp;
}
export interface LedgerPostingsTable {
  id: Id;
  entry_id: bigint;
  account_id: bigint;
  amount: Micro;
}
export interface UserTotalsTable {
  user_id: bigint;
  total_deposited: MicroDefault;
  total_staked: MicroDefault;
  total_withdrawn: MicroDefault;
  roi_income: MicroDefault;
  referral_income: MicroDefault;
  reward_income: MicroDefault;
  updated_at: Timestamp;
}

declare module '../../db/types' {
  interface Database {
    ledger_accounts: LedgerAccountsTable;
    ledger_entries: LedgerEntriesTable;
    ledger_postings: LedgerPostingsTable;
    user_totals: UserTotalsTable;
  }
}
