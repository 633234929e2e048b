import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, sourceFiles } from './source-files';

/**
 * Test support lives under apps/server/src/test/, which the image leaves out (.dockerignore): a
 * file elsewhere in the server's sources that only tests use ships in the image for nothing, and
 * reads as production code. Fault harnesses and the custody test chain once sat beside the code.
 */

const SERVER_SRC = 'apps/server/src/';
const SUPPORT_DIR = 'apps/server/src/test/';
/** Everything that may import a server file: the apps, core, and the tooling around them. */
const SCANNED = ['apps', 'packages', 'bench', 'scripts', 'e2e'];
/** What starts a server program by its path: `npm run cli`, `npm run demo:chain`, the image's CMD. */
const LAUNCHERS = ['package.json', 'Dockerfile'];

/** A program started by its path (a test's lock holder, the image's server) is used as much as an imported one. */
const BY_PATH = /['"\s](apps\/server\/src\/[\w./-]+\.ts)\b/g;
const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;(])import\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|[\s;])import\s+['"]([^'"]+)['"]/gm;

/** Whether a file is a test or test support: what may use test-only code without shipping it. */
const isTestSide = (rel: string) => /\.test\.tsx?$/.test(rel) || rel.startsWith(SUPPORT_DIR) || rel.startsWith('e2e/') || rel.startsWith('apps/web/src/test/');

/** The repository-relative files a file imports by a relative path (resolved as TypeScript does) or names by its repository path. */
function importsOf(rel: string, text: string, exists: (rel: string) => boolean): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3]!;
    if (!spec.startsWith('.')) continue;
    const base = path.posix.normalize(path.posix.join(path.posix.dirname(rel), spec));
    const stem = base.replace(/\.(js|mjs)$/, '');
    const found = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${base}/index.ts`].find(exists);
    if (found) out.push(found);
  }
  for (const m of text.matchAll(BY_PATH)) if (exists(m[1]!)) out.push(m[1]!);
  return out;
}

/**
 * The non-test server files outside the support folder that only tests and test support import,
 * directly or through another such file. A file nothing imports is an entry point (server.ts,
 * cli.ts, a script run by npm) and is not this rule's business.
 */
function testOnlySources(files: Map<string, string>): string[] {
  const importers = new Map<string, Set<string>>();
  for (const [rel, text] of files) {
    for (const target of importsOf(rel, text, (f) => files.has(f))) {
      if (target === rel) continue;
      if (!importers.has(target)) importers.set(target, new Set());
      importers.get(target)!.add(rel);
    }
  }
  const flagged = new Set<string>();
  const candidates = [...files.keys()].filter((f) => f.startsWith(SERVER_SRC) && !isTestSide(f) && /\.tsx?$/.test(f));
  // To a fixed point: a file only a flagged file imports is test-only too.
  for (let grew = true; grew;) {
    grew = false;
    for (const f of candidates) {
      const by = importers.get(f);
      if (flagged.has(f) || !by?.size) continue;
      if ([...by].every((i) => isTestSide(i) || flagged.has(i))) {
        flagged.add(f);
        grew = true;
      }
    }
  }
  return [...flagged].sort();
}

describe('test support lives under apps/server/src/test/', () => {
  it('no server source outside it is imported only by tests or test support', () => {
    const files = new Map<string, string>();
    for (const dir of SCANNED) {
      const abs = path.join(repoRoot, dir);
      if (!existsSync(abs)) continue;
      for (const file of sourceFiles(abs)) files.set(path.relative(repoRoot, file).split(path.sep).join('/'), readFileSync(file, 'utf8'));
    }
    for (const launcher of LAUNCHERS) files.set(launcher, readFileSync(path.join(repoRoot, launcher), 'utf8'));
    expect(files.size).toBeGreaterThan(200);
    expect(testOnlySources(files), 'move these under apps/server/src/test/ (or give them a non-test user)').toEqual([]);
  });

  it('finds a helper only tests import, and one only that helper imports', () => {
    const files = new Map([
      ['apps/server/src/modules/x/service.ts', "import { a } from './amounts';\nexport const s = a;"],
      ['apps/server/src/modules/x/amounts.ts', 'export const a = 1;'],
      ['apps/server/src/modules/x/fixture.ts', "import { a } from './amounts';\nimport { k } from './keys.js';\nexport const f = a + k;"],
      ['apps/server/src/modules/x/keys.ts', 'export const k = 2;'],
      ['apps/server/src/modules/x/x.test.ts', "import { f } from './fixture';\nimport { s } from './service';"],
      ['apps/server/src/test/app.ts', "import { s } from '../modules/x/service';"],
      ['apps/server/src/test/entry-points.ts', "export const holder = 'apps/server/src/modules/x/holder.ts';"],
      ['apps/server/src/modules/x/holder.ts', "import { a } from './amounts';"],
      ['apps/server/src/server.ts', "import { s } from './modules/x/service';"],
    ]);
    expect(testOnlySources(files)).toEqual([
      'apps/server/src/modules/x/fixture.ts',
      'apps/server/src/modules/x/holder.ts',
      'apps/server/src/modules/x/keys.ts',
    ]);
    files.set('apps/server/src/cli.ts', "import type { f } from './modules/x/fixture';");
    files.set('package.json', '"hold": "tsx apps/server/src/modules/x/holder.ts"');
    expect(testOnlySources(files)).toEqual([]);
  });
});
