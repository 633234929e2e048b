import type { TestProject } from 'vitest/node';
import { processFiles } from './process-files';
import { dropDatabase, makePostgresTemplate } from './template-db';

/** What the two server projects' setups share, made once: they run in the same vitest process. */
const shared = globalThis as { testProcessFiles?: ReturnType<typeof processFiles>; testProcessFileUsers?: number };

/**
 * The migrated PGlite data directory and the bundle the started processes run (process-files.ts),
 * taken by the first project's setup; released by the last project's teardown.
 */
async function sharedProcessFiles(): Promise<{ dataDir: string; bundle: string; release: () => void }> {
  shared.testProcessFiles ??= processFiles();
  shared.testProcessFileUsers = (shared.testProcessFileUsers ?? 0) + 1;
  const files = await shared.testProcessFiles;
  const release = () => {
    shared.testProcessFileUsers! -= 1;
    if (!shared.testProcessFileUsers) files.release();
  };
  return { dataDir: files.dir, bundle: files.bundle, release };
}

/**
 * Migrates once per run and per engine; every test file's database is a copy (test/app.ts). Bundles
 * the server and CLI once for the tests that start them as processes (test/entry-points.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const engine = (project.config.env as Record<string, string> | undefined)?.TEST_DB;
  const { dataDir, bundle, release } = await sharedProcessFiles();
  project.provide('pgliteDataDir', dataDir);
  project.provide('serverBundle', bundle);
  if (engine === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('the server-postgres project needs TEST_DATABASE_URL');
    const name = await makePostgresTemplate(url);
    project.provide('pgTemplate', name);
    return async () => {
      await dropDatabase(url, name);
      release();
    };
  }
  return async () => release();
}
