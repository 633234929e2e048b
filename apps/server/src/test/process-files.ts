import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { bundleServer } from './server-bundle';
import { makePgliteDataDirTemplate, removePath } from './template-db';

/** What the tests' real processes run on: the server bundle and a migrated PGlite data directory to copy. */
export interface ProcessFiles {
  dir: string;
  bundle: string;
}

/**
 * The bundle and the migrated data directory, made once for a whole `npm test`: it names a file in
 * TEST_PROCESS_FILES, and its three test runs (unit, browser, timed browser) are separate vitest
 * processes. The first to need them makes them and records them there; the others take them (about
 * 12 CPU-s each time, and the browser phase's setup ran alone on an otherwise idle core); `npm test`
 * removes them when it ends. Without TEST_PROCESS_FILES (a vitest run by hand) the caller makes its
 * own and `release` removes them.
 */
export async function processFiles(): Promise<ProcessFiles & { release: () => void }> {
  const handoff = process.env.TEST_PROCESS_FILES;
  if (handoff && existsSync(handoff)) {
    const kept = JSON.parse(readFileSync(handoff, 'utf8')) as ProcessFiles;
    if (existsSync(kept.dir) && existsSync(kept.bundle)) return { ...kept, release: () => undefined };
  }
  const [dir, bundle] = await Promise.all([makePgliteDataDirTemplate(), bundleServer()]);
  if (handoff) {
    writeFileSync(handoff, JSON.stringify({ dir, bundle } satisfies ProcessFiles));
    return { dir, bundle, release: () => undefined };
  }
  return {
    dir,
    bundle,
    release: () => {
      removePath(dir);
      removePath(bundle);
    },
  };
}
