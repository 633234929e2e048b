import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ZSignerEnv } from '../../signer/src/config';
import { loadConfig, ZEnv } from './config';

/**
 * `.env.example` is the list of every setting: it must name each variable the code reads once, and
 * no other, and a line `NAME=value` must show the default the code really has (`# NAME=` marks a
 * variable that is unset by default).
 */
const root = path.resolve(import.meta.dirname, '../../..');
const exampleText = readFileSync(path.join(root, '.env.example'), 'utf8');

/** Variables read outside the schema, with the default the example must show (undefined: unset). */
const OUTSIDE_SCHEMA: Record<string, string | undefined> = {
  CLI_WAIT_SECONDS: '120', // apps/server/src/cli.ts
  CHAIN_DEMO_STATE: undefined, // apps/server/src/cli/demo-chain-state.ts
  DEMO_ANVIL_PORT: undefined, // apps/server/src/cli/demo-chain.ts
  DEMO_TRON_PORT: undefined, // apps/server/src/cli/demo-chain.ts
};

interface Line {
  name: string;
  commented: boolean;
}

function exampleLines(text: string): Line[] {
  const lines: Line[] = [];
  for (const line of text.split('\n')) {
    const m = /^(#\s*)?([A-Z][A-Z0-9_]*)=/.exec(line);
    if (m) lines.push({ name: m[2]!, commented: Boolean(m[1]) });
  }
  return lines;
}

const lines = exampleLines(exampleText);
const values = parseEnv(exampleText);
type Setting = { safeParse(v: unknown): { success: boolean; data?: unknown } };
const serverShape = ZEnv.shape as Record<string, Setting>;
// The signer's own settings are listed in the same file (it shares the CHAIN_* names with the
// server, with the same defaults: a name in both must agree).
const shape: Record<string, Setting> = { ...(ZSignerEnv.shape as Record<string, Setting>), ...serverShape };
const schemaNames = Object.keys(shape);

/** The non-test server sources that may read process.env (the test helpers and fault harness do too). */
function sourceEnvReads(): Map<string, string> {
  const reads = new Map<string, string>();
  const src = path.join(root, 'apps/server/src');
  for (const rel of globSync('**/*.ts', { cwd: src })) {
    if (rel.endsWith('.test.ts') || rel.startsWith('test/') || rel.startsWith('faults/')) continue;
    const text = readFileSync(path.join(src, rel), 'utf8');
    for (const m of text.matchAll(/process\.env(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g)) reads.set(m[1] ?? m[2]!, rel);
  }
  return reads;
}

describe('.env.example lists every setting', () => {
  it('names each variable once', () => {
    const seen = new Set<string>();
    const twice = lines.filter((l) => (seen.has(l.name) ? true : (seen.add(l.name), false))).map((l) => l.name);
    expect(twice).toEqual([]);
  });

  it('names every variable of the schema and of the CLI, and no other', () => {
    const listed = new Set(lines.map((l) => l.name));
    const expected = new Set([...schemaNames, ...Object.keys(OUTSIDE_SCHEMA)]);
    expect([...expected].filter((n) => !listed.has(n)).sort(), 'missing from .env.example').toEqual([]);
    expect([...listed].filter((n) => !expected.has(n)).sort(), 'in .env.example but read by no code').toEqual([]);
  });

  it('every process.env read in the server sources is a listed setting', () => {
    const listed = new Set(lines.map((l) => l.name));
    const unlisted = [...sourceEnvReads()].filter(([name]) => !listed.has(name)).map(([name, file]) => `${name} (${file})`);
    expect(unlisted).toEqual([]);
  });

  it('shows each default as the code has it, and comments out the variables unset by default', () => {
    const wrong: string[] = [];
    for (const { name, commented } of lines) {
      if (name in OUTSIDE_SCHEMA) {
        const want = OUTSIDE_SCHEMA[name];
        const shown = commented ? undefined : values[name];
        if (shown !== want) wrong.push(`${name}: shows ${shown ?? 'unset'}, the code's default is ${want ?? 'unset'}`);
        continue;
      }
      const schema = shape[name];
      if (!schema) continue; // named by no code: the test above reports it
      const byDefault = schema.safeParse(undefined);
      if (commented) {
        // Unset by default, or required (the signer's mnemonic file and token): no value to show.
        if (byDefault.success && byDefault.data !== undefined) wrong.push(`${name}: commented out, but the code has a default`);
        continue;
      }
      const shown = schema.safeParse(values[name]);
      if (!shown.success) wrong.push(`${name}: ${values[name]} is not a valid value`);
      else if (!byDefault.success || byDefault.data === undefined) wrong.push(`${name}: shows ${values[name]}, but the code has no default`);
      else if (JSON.stringify(shown.data) !== JSON.stringify(byDefault.data))
        wrong.push(`${name}: shows ${values[name]}, the code's default is ${String(byDefault.data)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('copied to .env as it is, it configures the server exactly as no .env does', () => {
    const schemaValues = Object.fromEntries(Object.entries(values).filter(([name]) => name in serverShape));
    expect(loadConfig(schemaValues)).toEqual(loadConfig({}));
  });

  it("the CLI's own defaults are the ones the sources have", () => {
    const cli = readFileSync(path.join(root, 'apps/server/src/cli.ts'), 'utf8');
    expect(/process\.env\.CLI_WAIT_SECONDS \?\? (\d+)/.exec(cli)?.[1]).toBe(OUTSIDE_SCHEMA.CLI_WAIT_SECONDS);
  });
});
