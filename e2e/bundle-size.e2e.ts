import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const dist = path.resolve(import.meta.dirname, '../apps/web/dist');
type Chunk = { file: string; imports?: string[]; dynamicImports?: string[]; isEntry?: boolean };
type Manifest = Record<string, Chunk>;
const manifest = (): Manifest => JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;

/** The manifest keys' files and everything they import statically. */
function staticClosure(m: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imp of m[key]?.imports ?? []) visit(imp);
  };
  keys.forEach(visit);
  return new Set([...seen].map((k) => m[k]!.file).filter((f) => f.endsWith('.js')));
}

const gzipKB = (files: Iterable<string>) => [...files].reduce((sum, f) => sum + gzipSync(readFileSync(path.join(dist, f)), { level: 9 }).length, 0) / 1024;

/** The scripts a page's HTML asks for itself: its entry and its modulepreloads. */
function htmlScripts(page: string): string[] {
  const html = readFileSync(path.join(dist, page), 'utf8');
  const srcs = [...html.matchAll(/<script type="module"[^>]* src="\/([^"]+)"/g), ...html.matchAll(/<link rel="modulepreload"[^>]* href="\/([^"]+)"/g)];
  return srcs.map((s) => s[1]!);
}

/** What a page's HTML asks for, and those scripts with all they import statically, gzipped. */
function scriptsOf(page: string): { asked: string[]; files: Set<string>; kb: number } {
  const m = manifest();
  const byFile = new Map(Object.entries(m).map(([k, c]) => [c.file, k]));
  const asked = htmlScripts(page);
  const files = staticClosure(
    m,
    asked.map((f) => byFile.get(f) ?? f),
  );
  return { asked, files, kb: gzipKB(files) };
}

describe('bundle size', () => {
  it('keeps the landing page JavaScript within 15 KB gzipped: no React on /, all of it asked for by index.html at once', () => {
    // Issue 32: a visit to / runs the entry and the landing page's behaviour (main.tsx), on the
    // HTML the build pre-rendered; no framework, no hydration.
    const { asked, files, kb } = scriptsOf('index.html');
    console.log(`landing JS: ${kb.toFixed(1)} KB gzipped in ${files.size} files: ${[...files].join(' ')}`);
    expect([...files].filter((f) => !asked.includes(f))).toEqual([]);
    expect([...files].some((f) => f.includes('behaviour'))).toBe(true);
    expect(kb).toBeLessThanOrEqual(15);
  });

  it('keeps the signed-in JavaScript before the balance shows within 150 KB gzipped, all of it asked for by dashboard.html at once', () => {
    // Issue 32: what dashboard.html loads (its entry and modulepreloads) is what runs before
    // get-info's answer is painted; their static imports must be among them (no waterfall), and the
    // code that paints the balance must be in them (or it would come later, outside this count).
    const { asked, files, kb } = scriptsOf('dashboard.html');
    console.log(`signed-in JS before the balance: ${kb.toFixed(1)} KB gzipped in ${files.size} files: ${[...files].join(' ')}`);
    expect([...files].filter((f) => !asked.includes(f))).toEqual([]);
    expect([...files].some((f) => readFileSync(path.join(dist, f), 'utf8').includes('deposit-balance'))).toBe(true);
    expect(kb).toBeLessThanOrEqual(150);
  });
});
