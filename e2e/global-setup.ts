import type { TestProject } from 'vitest/node';
import { processFiles } from '../apps/server/src/test/process-files';

/**
 * One migrated PGlite data directory per run, every browser suite's server starts on a copy; one
 * bundle of the server and CLI they run (harness.ts). Under `npm test` they are the unit tests' own,
 * kept for the browser phases (apps/server/src/test/process-files.ts).
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const files = await processFiles();
  project.provide('pgliteDataDir', files.dir);
  project.provide('serverBundle', files.bundle);
  return files.release;
}
