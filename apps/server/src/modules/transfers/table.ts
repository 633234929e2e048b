import type { Id, Micro, Timestamp } from '../../db/types';

export interface TransfersTable {
  id: Id;
  sender_id: bigint;
  receiver_id: bigint;
  type: 'deposit' | 'withdraw';
  amount: Micro;
  created_at: Timestamp;
}

declare module '../../db/types' {
  interface Database {
    transfers: TransfersTable;
  }
}
