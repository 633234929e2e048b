import { afterEach, expect } from 'vitest';
import type { DB } from '../db/types';
import * as ledger from '../modules/ledger/service';

/**
 * Runs ledger:verify after each test of the block, so that a test which leaves the books
 * unbalanced fails itself rather than a later one. `db` is read when the hook runs, as the
 * block's database only exists once its beforeAll has run.
 */
export function verifyLedgerAfterEach(db: () => DB): void {
  afterEach(async () => {
    const report = await ledger.verify(db());
    expect(report.ok, JSON.stringify(report)).toBe(true);
  });
}
