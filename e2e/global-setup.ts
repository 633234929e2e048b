import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { bundleServer } from '../apps/server/src/test/server-bundle';
import { makePgliteDataDirTemplate, removePath } from '../apps/server/src/test/template-db';

type ProcessFiles = { dir: string; bundle: string };

/**
 * One migrated PGlite data directory per run, every browser suite's server starts on a copy; one
 * bundle of the server and CLI they run (harness.ts).
 *
 * `npm test` runs the browser tests twice (the timed file alone after the rest) and names a file in
 * E2E_PROCESS_FILES: the first run records its directory and bundle there and keeps them, the second
 * takes them and removes them (about 12 CPU-s of making them again, on a machine otherwise at rest).
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const handoff = process.env.E2E_PROCESS_FILES;
  const kept: ProcessFiles | undefined = handoff && existsSync(handoff) ? (JSON.parse(readFileSync(handoff, 'utf8')) as ProcessFiles) : undefined;
  const files: ProcessFiles =
    kept && existsSync(kept.dir) && existsSync(kept.bundle)
      ? kept
      : await Promise.all([makePgliteDataDirTemplate(), bundleServer()]).then(([dir, bundle]) => ({ dir, bundle }));
  project.provide('pgliteDataDir', files.dir);
  project.provide('serverBundle', files.bundle);
  if (handoff && !kept) {
    writeFileSync(handoff, JSON.stringify(files));
    return () => undefined;
  }
  return () => {
    removePath(files.dir);
    removePath(files.bundle);
    if (handoff) rmSync(handoff, { force: true });
  };
}
