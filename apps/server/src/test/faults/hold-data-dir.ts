import { existsSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { connectDb } from '../../db/connect';
import { lockDataDir } from '../../lib/data-dir-lock';

/**
 * A stand-in for a long CLI command on a PGlite DATA_DIR (a `jobs:roi` catching up, issue 30): it
 * takes the DATA_DIR lock as the CLI does, opens the database and runs long statements, each of
 * which blocks its only thread (so the lock's refresh stalls), until RELEASE_FILE exists.
 * Prints 'holding' once it has the directory open, 'released' when it has closed it.
 * Usage: tsx hold-data-dir.ts DATA_DIR RELEASE_FILE
 */
const [dataDir, releaseFile] = process.argv.slice(2);
if (!dataDir || !releaseFile) throw new Error('usage: hold-data-dir.ts DATA_DIR RELEASE_FILE');
const lock = await lockDataDir(dataDir, 'cli', (err) => {
  console.error(`lost the lock: ${err.message}`);
  process.exit(3);
});
const h = await connectDb({ pgliteDir: path.join(dataDir, 'pglite') });
console.log('holding');
while (!existsSync(releaseFile)) {
  // About a second or two of work in one statement, writing as it goes.
  await sql`create temp table if not exists busy as select 0 as n`.execute(h.db);
  await sql`insert into busy select count(*) from generate_series(1, 1500000)`.execute(h.db);
}
await h.close();
await lock.release();
console.log('released');
