import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { createTestDb, testDbKind } from '../test/app';
import { TEST_PGLITE_SHARED_BUFFERS } from '../test/process-tuning';

describe('PGlite buffer pool and shared WebAssembly', () => {
  it('PGLITE_SHARED_BUFFERS takes a size, and refuses anything else with one line', () => {
    expect(loadConfig({ PGLITE_SHARED_BUFFERS: '16MB' }).pgliteSharedBuffers).toBe('16MB');
    expect(loadConfig({}).pgliteSharedBuffers).toBeUndefined();
    expect(() => loadConfig({ PGLITE_SHARED_BUFFERS: 'lots' })).toThrow('Invalid configuration: PGLITE_SHARED_BUFFERS must be a size such as 16MB');
  });

  // One compiled module serves every PGlite of the process (connect.ts): each still has its own data.
  it.runIf(testDbKind === 'pglite')('opens each PGlite of a process with the given pool, apart from the others', async () => {
    const [a, b] = [await createTestDb(), await createTestDb()];
    try {
      const pool = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(a.db);
      expect(pool.rows[0]!.shared_buffers).toBe(TEST_PGLITE_SHARED_BUFFERS);
      await sql`create table only_in_a (x int)`.execute(a.db);
      await sql`insert into only_in_a values (1)`.execute(a.db);
      const seen = await sql<{ t: string | null }>`select to_regclass('only_in_a')::text as t`.execute(b.db);
      expect(seen.rows[0]!.t).toBeNull();
      expect((await sql<{ n: number }>`select count(*)::int as n from only_in_a`.execute(a.db)).rows[0]!.n).toBe(1);
      // Each database is a copy of the worker's in-memory template (db/pglite-template.ts): one opened
      // after a write elsewhere still starts as the migrated template, nothing more.
      const c = await createTestDb();
      try {
        const after = await sql<{
          t: string | null;
          users: string | null;
        }>`select to_regclass('only_in_a')::text as t, to_regclass('users')::text as users`.execute(c.db);
        expect(after.rows[0]).toEqual({ t: null, users: 'users' });
      } finally {
        await c.close();
      }
    } finally {
      await a.close();
      await b.close();
    }
  });
});
