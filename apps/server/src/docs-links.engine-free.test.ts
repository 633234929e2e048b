import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

/**
 * The operator's guides travel with the repository: a link to a file outside it (the design notes
 * beside the checkout, `../shared/…`) is dead for everyone who clones it, and a link to a file that
 * moved is dead too.
 */
describe('docs link only inside the project', () => {
  for (const doc of ['docs/custody.md']) {
    it(`${doc}: every relative link and path it names resolves inside the repository`, () => {
      const text = readFileSync(path.join(root, doc), 'utf8');
      const targets = [...text.matchAll(/\]\(([^)#\s]+)[^)]*\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/.test(t));
      const dotted = [...text.matchAll(/`(\.\.?\/[^`\s]+)`/g)].map((m) => m[1]!);
      for (const t of [...targets, ...dotted]) {
        const resolved = path.resolve(path.dirname(path.join(root, doc)), t);
        expect(path.relative(root, resolved).startsWith('..'), `${t} leaves the repository`).toBe(false);
        expect(existsSync(resolved), `${t} does not exist`).toBe(true);
      }
      expect(text).not.toMatch(/\.\.\/shared\//);
    });
  }
});
