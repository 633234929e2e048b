import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, sourceFiles } from './source-files';

/**
 * The benchmarks (bench/) take every port from the environment (bench/ports.ts benchPort: BENCH_PORT,
 * BENCH_ANVIL_PORT, …; unset is a free port) and never read `.env`: a checkout's settings are not a
 * benchmark's, and a port written in a bench cannot be kept away from another run's. A server a
 * bench spawns as a process reads `./.env` of its working directory, so the bench gives it one
 * without (the second argument of e2e/harness.ts startServer).
 */
const RULES: [string, RegExp][] = [
  ['loads .env (loadDotEnv)', /\bloadDotEnv\b/],
  ['reads a .env file', /['"`][^'"`\n]*\.env['"`]|\bloadEnvFile\b|--env-file|['"]dotenv(?:\/config)?['"]/],
  ['listens on a port written in the source', /\.listen\(\s*(?:\{\s*port:\s*)?['"]?\d/],
  ['passes a port written in the source', /\bport:\s*['"]?\d/i],
  ['starts anvil without a port from benchPort', /\bstartAnvil\(\s*\)/],
  ['listens without a port', /\.listen\(\s*\)/],
];

/** Comments dropped: they may name `.env` or a port (a `//` after a `:` is a URL, not a comment). */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/** The arguments of every `name(` call (to its matching parenthesis). */
function callArgs(text: string, name: string): string[] {
  const out: string[] = [];
  for (let at = text.indexOf(`${name}(`); at >= 0; at = text.indexOf(`${name}(`, at + 1)) {
    let depth = 0;
    for (let i = at + name.length; i < text.length; i++) {
      if ('([{'.includes(text[i]!)) depth++;
      else if (')]}'.includes(text[i]!) && --depth === 0) {
        out.push(text.slice(at + name.length + 1, i));
        break;
      }
    }
  }
  return out;
}

/** Whether `args` has a comma outside any bracket (a second argument). */
const hasSecondArg = (args: string) => {
  let depth = 0;
  for (const c of args) {
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === ',' && depth === 0) return true;
  }
  return false;
};

/** What is wrong in one bench file: "file:line: rule" lines. */
function benchEnvProblems(rel: string, text: string): string[] {
  const lines = code(text).split('\n');
  const problems = lines.flatMap((l, i) => RULES.filter(([, re]) => re.test(l)).map(([rule]) => `${rel}:${i + 1}: ${rule}`));
  // A server spawned as a process: its working directory must be the bench's choice (one without .env).
  for (const args of callArgs(code(text), 'startServer'))
    if (!hasSecondArg(args)) problems.push(`${rel}: startServer(${args.trim()}) runs the server in the checkout (its .env): pass { cwd }`);
  return problems;
}

const files = sourceFiles(path.join(repoRoot, 'bench')).map((file) => ({
  rel: path.relative(repoRoot, file).split(path.sep).join('/'),
  text: readFileSync(file, 'utf8'),
}));

describe('the benchmarks take their ports from the environment and never read .env', () => {
  it('finds the benches', () => {
    expect(files.map((f) => f.rel)).toEqual(expect.arrayContaining(['bench/lib.ts', 'bench/custody.bench.ts', 'bench/lighthouse.ts', 'bench/ports.ts']));
  });

  it('has no .env read and no port written in a bench', () => {
    expect(files.flatMap((f) => benchEnvProblems(f.rel, f.text))).toEqual([]);
  });

  it('takes every listening port through benchPort', () => {
    const lib = files.find((f) => f.rel === 'bench/lib.ts')!.text;
    expect(lib).toMatch(/app\.listen\(\{ port: benchPort\(portVar\)/);
    const custody = files.find((f) => f.rel === 'bench/custody.bench.ts')!.text;
    expect(custody).toMatch(/startAnvil\(\{ port: benchPort\('BENCH_ANVIL_PORT'\) \}\)/);
  });

  it('catches a planted example (and passes a clean one)', () => {
    const planted = [
      "import { loadDotEnv } from '../apps/server/src/config';",
      'loadDotEnv();',
      "const env = readFileSync(path.join(root, '.env'), 'utf8');",
      "await app.listen({ port: 3000, host: '127.0.0.1' });",
      "server.listen(8545, '127.0.0.1');",
      'const anvil = await startAnvil({ port: 8545 });',
      "const server = await startServer({ PORT: '3999' });",
      '// a comment naming `.env` and port: 3000 is fine',
    ].join('\n');
    expect(benchEnvProblems('bench/planted.ts', planted)).toEqual([
      'bench/planted.ts:1: loads .env (loadDotEnv)',
      'bench/planted.ts:2: loads .env (loadDotEnv)',
      'bench/planted.ts:3: reads a .env file',
      'bench/planted.ts:4: listens on a port written in the source',
      'bench/planted.ts:4: passes a port written in the source',
      'bench/planted.ts:5: listens on a port written in the source',
      'bench/planted.ts:6: passes a port written in the source',
      'bench/planted.ts:7: passes a port written in the source',
      "bench/planted.ts: startServer({ PORT: '3999' }) runs the server in the checkout (its .env): pass { cwd }",
    ]);
    const clean = [
      "await app.listen({ port: benchPort('BENCH_PORT'), host: '127.0.0.1' });",
      "const anvil = await startAnvil({ port: benchPort('BENCH_ANVIL_PORT') });",
      "const server = await startServer(serverEnv(), { cwd: emptyDir, mailPort: benchPort('BENCH_MAIL_PORT') });",
      "await fetch('http://127.0.0.1:8545/');",
    ].join('\n');
    expect(benchEnvProblems('bench/clean.ts', clean)).toEqual([]);
  });
});
