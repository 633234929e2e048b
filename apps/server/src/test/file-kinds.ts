import path from 'node:path';

/**
 * What a server test file declares by its name, read by vitest.config.ts (which cannot import
 * test files) and checked at run time by the helpers that open a database:
 * - `*.engine-free.test.ts`: the file never opens the engine under test (no test app, no test
 *   database, no fault target), so it runs once, in the PGlite project. The helpers throw when such
 *   a file calls them: a file declared so by mistake fails instead of never meeting PostgreSQL.
 * - `*.procs.test.ts` (or `*.procs.engine-free.test.ts`): the file starts the server or the CLI as
 *   processes and runs for tens of seconds; it is started first within its project.
 * This replaced two regexes over each file's text, which missed a helper now and then.
 */
export const ENGINE_FREE_SERVER_TESTS = 'apps/server/src/**/*.engine-free.test.ts';

export const isEngineFreeFile = (file: string): boolean => file.endsWith('.engine-free.test.ts');

export const startsProcesses = (file: string): boolean => /\.procs(\.engine-free)?\.test\.ts$/.test(file);

/**
 * Throws when the test file running now (vitest's `expect.getState().testPath`, given by the
 * caller so this module stays importable by the config) is declared engine-free.
 */
export function refuseInEngineFreeFile(testPath: string | undefined, helper: string): void {
  if (testPath && isEngineFreeFile(testPath)) {
    throw new Error(
      `${path.basename(testPath)} is declared engine-free (it runs on PGlite only) but calls ${helper}, which opens the engine under test. ` +
        'Drop ".engine-free" from its name so it runs on PostgreSQL too (apps/server/src/test/file-kinds.ts).',
    );
  }
}
