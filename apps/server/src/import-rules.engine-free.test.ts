import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The import rules of .dependency-cruiser.cjs (run by `npm run lint`): no import cycle, type-only
 * imports included; the boundaries between features and modules; no undeclared package.
 */
describe('import rules (dependency-cruiser)', () => {
  const fixtures = mkdtempSync(join(tmpdir(), 'import-rules-'));
  afterAll(() => rmSync(fixtures, { recursive: true, force: true }));

  const violations = async (paths: string[]) => {
    const options = await extractDepcruiseOptions('./.dependency-cruiser.cjs');
    const { output } = await cruise(paths, options);
    return (output as ICruiseResult).summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to, cycle: v.cycle?.map((c) => c.name) }));
  };
  const write = (dir: string, files: Record<string, string>) => {
    const path = mkdtempSync(join(fixtures, `${dir}-`));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(path, name), text);
    return path;
  };

  it('reports a cycle made only of `import type` and inline type imports', async () => {
    const dir = write('type-cycle', {
      'runner.ts': "import type { Job } from './job';\nexport interface Runner { jobs: Job[] }\n",
      'job.ts': "import { type Runner } from './runner';\nexport interface Job { runner?: Runner }\n",
    });
    const found = await violations([dir]);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ rule: 'no-circular' });
    expect(found[0]!.cycle!.map((p) => p.split('/').at(-1))).toContain('runner.ts');
  });

  it('passes the same files once the arrow points one way', async () => {
    const dir = write('one-way', {
      'runner.ts': "import type { Job } from './job';\nexport interface Runner { jobs: Job[] }\n",
      'job.ts': 'export interface Job { name: string }\n',
    });
    expect(await violations([dir])).toEqual([]);
  });

  it('finds no violation in the tree', async () => {
    expect(await violations(['apps', 'packages', 'e2e', 'bench', 'scripts'])).toEqual([]);
  });
});
