import { readdirSync } from 'node:fs';
import path from 'node:path';

/** The repository's root (the tests that scan the sources for a second writer read from here). */
export const repoRoot = path.resolve(import.meta.dirname, '../../../..');

/** Every .ts/.tsx/.mts/.mjs/.js file under `dir`, recursively, except node_modules and build output. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(ts|tsx|mts|mjs|js)$/.test(entry.name)) out.push(full);
  }
  return out;
}
