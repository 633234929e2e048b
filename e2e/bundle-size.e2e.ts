import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const dist = path.resolve(import.meta.dirname, '../apps/web/dist');
type Manifest = Record<string, { file: string; imports?: string[]; isEntry?: boolean }>;

/** The JavaScript a visitor's browser must load before the landing page shows: the entry and the landing route, with their static imports. */
function landingInitialJs(): { files: string[]; gzipBytes: number } {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imp of manifest[key]?.imports ?? []) visit(imp);
  };
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  const landing = Object.keys(manifest).find((k) => k.endsWith('features/landing/pages/landing-page.tsx'));
  if (!entry || !landing) throw new Error('entry or landing chunk missing from the manifest');
  visit(entry);
  visit(landing);
  const files = [...seen].map((k) => manifest[k]!.file).filter((f) => f.endsWith('.js'));
  const gzipBytes = files.reduce((sum, f) => sum + gzipSync(readFileSync(path.join(dist, f)), { level: 9 }).length, 0);
  return { files, gzipBytes };
}

describe('bundle size', () => {
  it('keeps the landing page initial JavaScript within 100 KB gzipped', () => {
    const { files, gzipBytes } = landingInitialJs();
    console.log(`landing initial JS: ${(gzipBytes / 1024).toFixed(1)} KB gzipped in ${files.length} files`);
    expect(gzipBytes).toBeLessThanOrEqual(100 * 1024);
  });
});
