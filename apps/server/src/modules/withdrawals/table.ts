import type { WithdrawalStatus } from '@app/core';
import type { Generated } from 'kysely';
import type { Id, Micro, Timestamp } from '../../db/types';

export interface WithdrawalsTable {
  id: Id;
  user_id: bigint;
  amount: Micro;
  fee: Micro;
  receive_amount: Micro;
  network: 'POLYGON' | 'BSC' | 'TRON';
  wallet_address: string;
  token: Generated<string>;
  status: Generated<WithdrawalStatus>;
  tx_hash: string | null;
  reject_reason: string | null;
  payout_nonce: bigint | null;
  payout_note: string | null;
  approved_by: bigint | null;
  approved_at: Timestamp | null;
  sent_at: Timestamp | null;
  processed_by: bigint | null;
  processed_at: Timestamp | null;
  created_at: Timestamp;
}

/** The signer's last contact (one row): custody.md section 6, the operator view. */
export interface SignerContactsTable {
  id: Generated<number>;
  last_contact_at: Timestamp;
  limits: Generated<unknown>;
  hot: Generated<unknown>;
}

/** A sweep of a deposit address by the signer, found final on chain (migration 0210). */
export interface CustodySweepsTable {
  id: Generated<bigint>;
  network: string;
  address: string;
  amount_raw: string;
  destination: 'hot' | 'cold';
  gas_tx: string | null;
  token_tx: string;
  block_number: bigint;
  created_at: Generated<Date>;
}

declare module '../../db/types' {
  interface Database {
    withdrawals: WithdrawalsTable;
    signer_contacts: SignerContactsTable;
    custody_sweeps: CustodySweepsTable;
  }
}
