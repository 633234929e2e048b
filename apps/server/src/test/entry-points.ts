import path from 'node:path';
import { TEST_NODE_FLAGS } from './process-tuning';
import { provided } from './provided';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's bundle of the server, the CLI, the lock holder and the signer (test/server-bundle.ts). */
    serverBundle: string;
  }
}

const root = path.resolve(import.meta.dirname, '../../../..');
const SOURCES = {
  server: 'apps/server/src/server.ts',
  cli: 'apps/server/src/cli.ts',
  'hold-data-dir': 'apps/server/src/test/faults/hold-data-dir.ts',
  // The signer (`npm run signer`): its kill tests start it a dozen times a run.
  signer: 'apps/signer/src/main.ts',
} as const;
export type EntryPoint = keyof typeof SOURCES;

/**
 * The arguments after `node` that run a program of ours as a process: the run's bundle, built once
 * by the global setup from the same source (the start-up test still starts the source through tsx,
 * as `npm start` does). Outside vitest there is no bundle: the source runs through tsx.
 */
export function nodeArgs(entry: EntryPoint): string[] {
  const bundle = provided('serverBundle');
  if (bundle) return [...TEST_NODE_FLAGS, path.join(bundle, `${entry}.mjs`)];
  if (process.env.VITEST) throw new Error('no server bundle: the global setup builds it (test/server-bundle.ts)');
  // Outside vitest (the Lighthouse benchmark): the source through tsx, as `npm start` runs it; tsx
  // by its full address, so the process may run in a directory without node_modules (no `.env` there).
  return ['--import', import.meta.resolve('tsx'), entrySources()[entry]];
}

/** Absolute paths of the source files the bundle is built from. */
export const entrySources = (): Record<EntryPoint, string> =>
  Object.fromEntries(Object.entries(SOURCES).map(([name, file]) => [name, path.join(root, file)])) as Record<EntryPoint, string>;
