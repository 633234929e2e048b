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
  processed_by: bigint | null;
  processed_at: Timestamp | null;
  created_at: Timestamp;
}

declare module '../../db/types' {
  interface Database {
    withdrawals: WithdrawalsTable;
  }
}
