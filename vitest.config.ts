import { readFileSync } from 'node:fs';
import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { ENGINE_FREE_SERVER_TESTS, startsProcesses } from './apps/server/src/test/file-kinds';
import { TEST_NODE_FLAGS, tuneTestProcesses } from './apps/server/src/test/process-tuning';

tuneTestProcesses();

/**
 * Unit and integration tests. The server suite runs against PGlite always and, when
 * TEST_DATABASE_URL is set, a second time against that PostgreSQL (each test file in its own
 * database, copied from a template migrated once per run: apps/server/src/test/global-setup.ts).
 * A server test file that never opens the engine under test says so by its name,
 * `*.engine-free.test.ts`, and runs once, in the PGlite project: running it again on PostgreSQL
 * would prove nothing new. The test database helpers throw in such a file
 * (apps/server/src/test/file-kinds.ts), so the name cannot lie.
 */
const SERVER_TESTS = 'apps/server/src/**/*.test.ts';

const serverProject = (db: 'pglite' | 'postgres') => ({
  test: {
    name: `server-${db}`,
    // Files share a worker's module graph instead of importing the app again each (half the CPU of
    // a file run here). Nothing in the server keeps per-test state in a module: every test file
    // builds its own app, context and database, and no test mocks a module.
    isolate: false,
    include: [SERVER_TESTS],
    exclude: db === 'postgres' ? [ENGINE_FREE_SERVER_TESTS] : [],
    environment: 'node',
    execArgv: TEST_NODE_FLAGS,
    env: { TEST_DB: db },
    globalSetup: ['apps/server/src/test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

/**
 * The server projects one after the other, each with its longest files first, and the small isolated
 * projects last.
 * - Within a project the longest files start first: the process-spawning ones (`*.procs.test.ts`),
 *   then the larger files. On a fresh clone vitest has no timings and runs the larger files first,
 *   so the slow process-spawning files could start last and run on one worker while the others idled.
 * - One project at a time: vitest keeps a non-isolated worker (its imported app, its compiled PGlite)
 *   for the next file only when the next file in the queue is of the same project; otherwise it ends
 *   the worker and forks a new one. With the two server projects interleaved, nearly every file
 *   paid for a new worker (about 90 a run).
 */
const PROJECT_ORDER = ['server-postgres', 'server-pglite', 'web', 'core'];

class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const weight = (spec: TestSpecification) => {
      return (startsProcesses(spec.moduleId) ? 1_000_000 : 0) + readFileSync(spec.moduleId, 'utf8').length;
    };
    const rank = (spec: TestSpecification) => {
      const i = PROJECT_ORDER.indexOf(spec.project.name);
      return i === -1 ? PROJECT_ORDER.length : i;
    };
    const weights = new Map(files.map((spec) => [spec, weight(spec)]));
    return [...files].sort((a, b) => rank(a) - rank(b) || weights.get(b)! - weights.get(a)!);
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: SlowFirst },
    // One worker more than cores: a PostgreSQL file spends much of its time waiting on the server,
    // a process-spawning one on its children.
    maxWorkers: os.availableParallelism() + 1,
    projects: [
      { test: { name: 'core', include: ['packages/core/src/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'web', include: ['apps/web/src/**/*.test.ts', 'apps/web/src/**/*.test.tsx'], environment: 'node' } },
      serverProject('pglite'),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('postgres')] : []),
    ],
  },
});
