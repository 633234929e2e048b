import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { propertySeed, replayWith, sized } from './property-knobs';
import { repoRoot, sourceFiles } from './source-files';

/**
 * The randomised tests share one knob set (issue 50): TEST_LONG for the size, FC_SEED for the seed,
 * read in property-knobs.ts (and, as core has no Node types, in core's money test), nowhere else.
 */
const KNOBS = 'apps/server/src/test/property-knobs.ts';
const CORE_READER = 'packages/core/src/money.test.ts';
const THIS = 'apps/server/src/test/property-knobs.test.ts';

const files = ['apps', 'packages', 'e2e']
  .flatMap((dir) => sourceFiles(path.join(repoRoot, dir)))
  .map((file) => ({ rel: path.relative(repoRoot, file).split(path.sep).join('/'), text: readFileSync(file, 'utf8') }))
  .filter((f) => f.rel !== THIS);

describe('the randomised tests have one knob set', () => {
  it('reads TEST_LONG and FC_SEED in one place', () => {
    const readers = files.filter((f) => /process(\?)?\.env(\?)?\.(TEST_LONG|FC_SEED)\b|env\.(TEST_LONG|FC_SEED)\b/.test(f.text)).map((f) => f.rel);
    expect(readers.sort()).toEqual([KNOBS, CORE_READER].sort());
  });

  it('has no knobs of its own per test', () => {
    const own = files.filter((f) => /\b(FC_RUNS|FC_BATCHES|PROPERTY_SEED|PROPERTY_OPS|PROPERTY_CONCURRENCY)\b/.test(f.text)).map((f) => f.rel);
    expect(own).toEqual([]);
  });

  it('seeds every fast-check test from the shared seed', () => {
    const fastCheck = files.filter((f) => /from 'fast-check'/.test(f.text));
    expect(fastCheck.length).toBeGreaterThan(0);
    expect(fastCheck.filter((f) => !f.text.includes("from '../../test/property-knobs'")).map((f) => f.rel)).toEqual([]);
  });

  it.skipIf(process.env.TEST_LONG === '1' || Boolean(process.env.FC_SEED))('gives the fixed seed and the bounded size in npm test', () => {
    expect(propertySeed(29)).toBe(29);
    expect(sized(6, 60)).toBe(6);
    expect(replayWith(29)).toBe('FC_SEED=29');
  });
});
