import type { Id, Micro, Timestamp } from '../../db/types';

export interface IncomeRecordsTable {
  id: Id;
  user_id: bigint;
  type: 1 | 2 | 3;
  amount: Micro;
  note: string;
  source_id: string | null;
  for_date: string | null;
  idempotency_key: string;
  created_at: Timestamp;
}
export interface JobRunsTable {
  name: string;
  period: string;
  started_at: Timestamp;
  finished_at: Timestamp | null;
  result: string | null;
}

declare module '../../db/types' {
  interface Database {
    income_records: IncomeRecordsTable;
    job_runs: JobRunsTable;
  }
}
