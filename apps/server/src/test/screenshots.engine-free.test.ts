import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, sourceFiles } from './source-files';

/**
 * Browser screenshots are for a person looking at the screens, and cost every run CPU and disk when
 * nobody does: only `screenshot()` in e2e/harness.ts takes one, and only when SHOTS_DIR is set. A
 * Playwright call made anywhere else (a test, a helper, a benchmark) would take them on every run.
 */
const HARNESS = 'e2e/harness.ts';
const THE_FUNCTION = /export async function screenshot\(page: Page, name: string[^)]*\): Promise<void> \{\n([\s\S]*?)\n\}\n/;
const CAPTURE = /\.screenshot\(/g;

const files = ['e2e', 'bench', 'scripts', 'apps']
  .flatMap((dir) => sourceFiles(path.join(repoRoot, dir)))
  .map((file) => ({ rel: path.relative(repoRoot, file).split(path.sep).join('/'), text: readFileSync(file, 'utf8') }));

describe('screenshots are taken in one place, only when SHOTS_DIR is set', () => {
  it('has no screenshot call outside the harness function', () => {
    const outside = files.flatMap((f) => {
      const text = f.rel === HARNESS ? f.text.replace(THE_FUNCTION, '') : f.text;
      return (text.match(CAPTURE) ?? []).map(() => f.rel);
    });
    expect(outside).toEqual([]);
  });

  it('returns from the harness function before any capture when SHOTS_DIR is unset', () => {
    const harness = files.find((f) => f.rel === HARNESS)?.text ?? '';
    const body = THE_FUNCTION.exec(harness)?.[1];
    expect(body, 'screenshot() in e2e/harness.ts').toBeDefined();
    const bail = body!.search(/const dir = process\.env\.SHOTS_DIR;\n\s*if \(!dir\) return;/);
    expect(bail).toBeGreaterThanOrEqual(0);
    expect(body!.slice(0, bail).match(CAPTURE)).toBeNull();
    expect(body!.match(CAPTURE)).toHaveLength(1);
  });
});
