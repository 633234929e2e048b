import type { TestProject } from 'vitest/node';
import { bundleServer } from '../apps/server/src/test/server-bundle';
import { makePgliteDataDirTemplate, removePath } from '../apps/server/src/test/template-db';

/**
 * One migrated PGlite data directory per run, every browser suite's server starts on a copy; one
 * bundle of the server and CLI they run (harness.ts).
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const [dir, bundle] = await Promise.all([makePgliteDataDirTemplate(), bundleServer()]);
  project.provide('pgliteDataDir', dir);
  project.provide('serverBundle', bundle);
  return () => {
    removePath(dir);
    removePath(bundle);
  };
}
