import { sql, type RawBuilder } from 'kysely';

/**
 * The rows `k(token_hash, ord)` of a coalesced read's token hashes, in the caller's order.
 *
 * Written `unnest((select $1))`, not `unnest($1)`, so that PostgreSQL can keep one plan per
 * connection. With the array as a plain parameter, each custom plan sees its length (1 to 32 rows)
 * while the generic plan must guess 10, so the generic plan always looked dearer, was never
 * chosen, and every execution was planned again: 0.3–0.5 ms of planning against 0.06–0.09 ms of
 * execution, most of PostgreSQL's CPU under the wallet read (docs/benchmarks.md, 2026-11-24).
 * Behind a sub-select the length is unknown to both plans, their costs agree, and after its five
 * custom plans the statement runs on the cached generic one. The plan is still rebuilt whenever
 * the tables' statistics change (ANALYZE invalidates it), so it follows the tables as they grow.
 */
export function tokenHashKeys(hashes: string[]): RawBuilder<unknown> {
  return sql`unnest((select ${hashes}::text[])) with ordinality as k(token_hash, ord)`;
}
