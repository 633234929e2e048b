import type { TestProject } from 'vitest/node';
import { bundleServer } from './server-bundle';
import { dropDatabase, makePgliteDataDirTemplate, makePgliteTemplate, makePostgresTemplate, removePath } from './template-db';

/**
 * Migrates once per run and per engine; every test file's database is a copy (test/app.ts). Bundles
 * the server and CLI once for the tests that start them as processes (test/entry-points.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const engine = (project.config.env as Record<string, string> | undefined)?.TEST_DB;
  const [dataDir, bundle] = await Promise.all([makePgliteDataDirTemplate(), bundleServer()]);
  project.provide('pgliteDataDir', dataDir);
  project.provide('serverBundle', bundle);
  if (engine === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('the server-postgres project needs TEST_DATABASE_URL');
    const name = await makePostgresTemplate(url);
    project.provide('pgTemplate', name);
    return async () => {
      await dropDatabase(url, name);
      removePath(dataDir);
      removePath(bundle);
    };
  }
  const file = await makePgliteTemplate();
  project.provide('pgliteTemplate', file);
  return async () => {
    removePath(file);
    removePath(dataDir);
    removePath(bundle);
  };
}
