import type { Database, Executor } from '../db/types';

/** How many rows `table` holds: the tests' check that a refused request wrote nothing, or a retried one wrote once. */
export async function countRows(db: Executor, table: keyof Database & string): Promise<number> {
  const { n } = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<bigint | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}
