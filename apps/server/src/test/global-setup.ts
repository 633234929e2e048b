import type { TestProject } from 'vitest/node';
import { dropDatabase, makePgliteDataDirTemplate, makePgliteTemplate, makePostgresTemplate, removePath } from './template-db';

/** Migrates once per run and per engine; every test file's database is a copy (test/app.ts). */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const engine = (project.config.env as Record<string, string> | undefined)?.TEST_DB;
  const dataDir = await makePgliteDataDirTemplate();
  project.provide('pgliteDataDir', dataDir);
  if (engine === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('the server-postgres project needs TEST_DATABASE_URL');
    const name = await makePostgresTemplate(url);
    project.provide('pgTemplate', name);
    return async () => {
      await dropDatabase(url, name);
      removePath(dataDir);
    };
  }
  const file = await makePgliteTemplate();
  project.provide('pgliteTemplate', file);
  return async () => {
    removePath(file);
    removePath(dataDir);
  };
}
