import type { ColumnType, Generated } from 'kysely';
import type { TAddressFamily, TCustodyNetwork } from '@app/core';
import type { Id, Timestamp } from '../../db/types';

export interface CustodyAccountsTable {
  user_id: bigint;
  idx: number;
  created_at: Generated<Date>;
}

export interface CustodyAddressesTable {
  family: TAddressFamily;
  /** 20 bytes, lowercase 0x hex (the Tron form is base58check of 0x41 ‖ these bytes) */
  address: string;
  user_id: bigint;
  idx: number;
  /** the account xpub the address was derived from */
  xpub: string;
  /** hex hash160 identifier of that xpub (derive.ts keyFingerprint); NULL: legacy row whose xpub text is no key */
  key_fingerprint: string | null;
  created_at: Generated<Date>;
}

/** Every account key that has handed out addresses, with its own index sequence (migration 0200). */
export interface CustodyKeysTable {
  family: TAddressFamily;
  fingerprint: string;
  xpub: string;
  next_idx: number;
  created_at: Generated<Date>;
}

export interface ChainCursorsTable {
  network: TCustodyNetwork;
  /** the highest block every log of which has been read */
  scanned_to: bigint;
  /** the credited line: observations at or under it are final */
  final_height: bigint;
  head: bigint | null;
  finalized_tag: bigint | null;
  head_at: Timestamp | null;
  halted: Generated<boolean>;
  halted_reason: string | null;
  halted_at: Timestamp | null;
  updated_at: Generated<Date>;
}

export interface ChainBlocksTable {
  network: TCustodyNetwork;
  number: bigint;
  hash: string;
}

export type ObservationStatus = 'seen' | 'credited' | 'below_minimum' | 'held' | 'orphaned' | 'dismissed';

export interface ChainObservationsTable {
  id: Id;
  network: TCustodyNetwork;
  block_number: bigint;
  block_hash: string;
  tx_hash: string;
  log_index: number;
  token: string;
  from_address: string;
  to_address: string;
  user_id: bigint;
  /** the token's own units, exact (NUMERIC(78,0), read as text) */
  raw_amount: ColumnType<string, string, string>;
  /** micro-USDT: ⌊raw ÷ 10^(decimals − 6)⌋ */
  amount: bigint;
  status: ColumnType<ObservationStatus, ObservationStatus | undefined, ObservationStatus>;
  payment_id: bigint | null;
  seen_at: Generated<Date>;
  final_at: Timestamp | null;
  orphaned_at: Timestamp | null;
  credited_by: bigint | null;
  note: string | null;
}

declare module '../../db/types' {
  interface Database {
    custody_accounts: CustodyAccountsTable;
    custody_addresses: CustodyAddressesTable;
    custody_keys: CustodyKeysTable;
    chain_cursors: ChainCursorsTable;
    chain_blocks: ChainBlocksTable;
    chain_observations: ChainObservationsTable;
  }
}
