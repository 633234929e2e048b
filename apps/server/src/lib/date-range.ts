import type { TDateRange } from '@app/core';
import { sql, type SelectQueryBuilder } from 'kysely';

/**
 * A history's date range (start_date, end_date: yyyy-mm-dd, UTC days, both included) as instants:
 * `from` inclusive, `to` exclusive (the start of the day after end_date). Either may be absent.
 * Every history filters its created_at with these (issue 32, item 19).
 */
export function dayBounds(range: TDateRange | undefined): { from?: Date; to?: Date } {
  const out: { from?: Date; to?: Date } = {};
  if (range?.start_date) out.from = new Date(`${range.start_date}T00:00:00Z`);
  if (range?.end_date) out.to = new Date(Date.parse(`${range.end_date}T00:00:00Z`) + 86_400_000);
  return out;
}

/** The rows of `base` whose created_at falls in the range (see dayBounds); all of them without one. */
export function createdWithin<DB, TB extends keyof DB>(
  base: SelectQueryBuilder<DB, TB, object>,
  range: TDateRange | undefined,
): SelectQueryBuilder<DB, TB, object> {
  const { from, to } = dayBounds(range);
  let q = base;
  if (from) q = q.where(sql.ref('created_at'), '>=', from);
  if (to) q = q.where(sql.ref('created_at'), '<', to);
  return q;
}

/** The range fields of a query, for the list functions (empty strings count as absent). */
export function rangeOf(query: { start_date?: string | undefined; end_date?: string | undefined }): TDateRange {
  return { start_date: query.start_date || undefined, end_date: query.end_date || undefined };
}
