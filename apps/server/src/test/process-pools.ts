import { afterAll, beforeAll } from 'vitest';
import { connectDb, type DbHandle } from '../db/connect';
import { createTestDb } from './app';

type TestDb = Awaited<ReturnType<typeof createTestDb>>;

/**
 * The block's fresh database (`main`, for setup and checks) and `count` more pools of `poolSize`
 * connections on it, each standing for a separate server process racing the others, as the
 * PostgreSQL concurrency tests need. Both are filled in by the block's beforeAll and closed after it.
 */
export function useProcessPools(count: number, poolSize: number): { main: TestDb; procs: DbHandle[] } {
  const main = {} as TestDb;
  const procs: DbHandle[] = [];
  beforeAll(async () => {
    Object.assign(main, await createTestDb());
    for (let i = 0; i < count; i++) procs.push(await connectDb({ databaseUrl: main.url, schema: main.schema!, poolSize }));
  });
  afterAll(async () => {
    for (const p of procs) await p.close();
    await main.close?.();
  });
  return { main, procs };
}
