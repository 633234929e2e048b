import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../../..');

describe('the browser harness outside vitest', () => {
  // `npm run bench:lighthouse` starts its servers through e2e/harness.ts under tsx; vitest 5 throws
  // when imported there, which broke the benchmark at start. The harness and the helpers it uses
  // must load in a plain Node process, and the server they start then runs from source.
  it('loads under tsx without vitest, and runs the server from its source', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.VITEST;
    const script = `
      await import('./e2e/api-helpers.ts');
      const { nodeArgs } = await import('./apps/server/src/test/entry-points.ts');
      const { newDataDir } = await import('./apps/server/src/test/template-db.ts');
      const dir = newDataDir('usdt-provided-');
      (await import('node:fs')).rmSync(dir, { recursive: true });
      console.log(JSON.stringify(nodeArgs('server')));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, env });
    // tsx by name under vitest, by its loader's full path outside it (a server started from a
    // directory without node_modules, as the benches do, still finds it).
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual([
      '--import',
      expect.stringMatching(/^file:.*\/tsx\/dist\/loader\.mjs$/),
      path.join(root, 'apps/server/src/server.ts'),
    ]);
  });
});
