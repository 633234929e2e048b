import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, testDbKind } from '../test/app';
import { SCHEMA_FILE, schemaSnapshot } from './schema-snapshot';

/**
 * db/schema.sql is the live schema, readable in one place: it must be exactly what the migrations
 * make. Written on PGlite (`npm run db:manifest`), compared on PGlite (PostgreSQL 15 words some
 * definitions differently).
 */
describe.runIf(testDbKind === 'pglite')('db/schema.sql', () => {
  let h: Awaited<ReturnType<typeof createTestDb>>;
  beforeAll(async () => {
    h = await createTestDb();
  });
  afterAll(async () => h.close());

  it('is what the migrations make (npm run db:manifest rewrites it)', async () => {
    const live = await schemaSnapshot(h.db);
    expect(live).toContain('CREATE OR REPLACE FUNCTION app_post_many(');
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(live);
  });
});
