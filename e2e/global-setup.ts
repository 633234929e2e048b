import type { TestProject } from 'vitest/node';
import { makePgliteDataDirTemplate, removePath } from '../apps/server/src/test/template-db';

/** One migrated PGlite data directory per run; every browser suite's server starts on a copy (harness.ts). */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = await makePgliteDataDirTemplate();
  project.provide('pgliteDataDir', dir);
  return () => removePath(dir);
}
