import { sql, type SelectQueryBuilder } from 'kysely';
import { offsetOf } from './reply';

/**
 * One page of a filtered query and the total it pages through: the count over `base`, then the rows
 * `select` picks from it, limited to the page. Every paginated list goes through here.
 */
export async function paginate<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, object>,
  page: number,
  perPage: number,
  select: (q: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, O>,
): Promise<{ rows: O[]; total: number }> {
  const count = (await base.select(sql<string>`count(*)`.as('n')).executeTakeFirst()) as { n: string | number | bigint } | undefined;
  const rows = await select(base).limit(perPage).offset(offsetOf(page, perPage)).execute();
  return { rows: rows as O[], total: Number(count?.n ?? 0) };
}
