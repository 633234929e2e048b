#!/usr/bin/env node
// `npm test`: every check CI runs, in the order that keeps a two-core machine busy.
//  1. format, lint, each typecheck and the web build, two at a time (each is one busy core);
//  2. the unit and integration tests (vitest, several workers);
//  3. the browser tests, on the build from step 1;
//  4. the browser tests that measure time (*.timed.e2e.ts), alone on a machine at rest.
// A failing step stops the run with its output; the others' output is printed as each ends.
import { spawn } from 'node:child_process';
import os from 'node:os';

const checks = [
  ['format', 'prettier --check .'],
  ['lint', 'eslint . --max-warnings 0'],
  ['import rules', 'npm run -s lint:imports'],
  ['typecheck core', 'tsc -p packages/core'],
  ['typecheck server', 'tsc -p apps/server'],
  ['typecheck web', 'tsc -p apps/web'],
  ['typecheck e2e', 'tsc -p e2e'],
  ['typecheck bench', 'tsc -p bench'],
  ['build', 'npm run build'],
];
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(0)} s`;

/** Runs a shell command; with `stream` its output goes straight through, otherwise it is kept. */
function run(name, command, { stream = false } = {}) {
  return new Promise((resolve) => {
    const t = Date.now();
    const child = spawn(command, { shell: true, stdio: stream ? 'inherit' : 'pipe', env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' } });
    let out = '';
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ name, code: code ?? 1, out, took: seconds(t) }));
  });
}

async function pool(tasks, width) {
  const queue = [...tasks];
  const failed = [];
  const worker = async () => {
    for (let task = queue.shift(); task; task = queue.shift()) {
      const r = await run(...task);
      console.log(`${r.code === 0 ? 'ok  ' : 'FAIL'} ${r.name} (${r.took})`);
      if (r.code !== 0) {
        failed.push(r.name);
        process.stdout.write(r.out);
      }
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return failed;
}

const failed = await pool(checks, Math.max(2, Math.min(4, os.availableParallelism())));
if (failed.length) {
  console.error(`npm test: ${failed.join(', ')} failed (${seconds(started)})`);
  process.exit(1);
}
for (const [name, command] of [
  ['unit and integration tests', 'vitest run'],
  ['browser tests', 'vitest run --config e2e/vitest.config.ts'],
  ['timed browser tests, one at a time', 'E2E_TIMED=1 vitest run --config e2e/vitest.config.ts'],
]) {
  console.log(`\n== ${name}`);
  const r = await run(name, command, { stream: true });
  console.log(`${r.code === 0 ? 'ok  ' : 'FAIL'} ${name} (${r.took})`);
  if (r.code !== 0) {
    console.error(`npm test: ${name} failed (${seconds(started)})`);
    process.exit(1);
  }
}
console.log(`npm test: everything passed in ${seconds(started)}`);
