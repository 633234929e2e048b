#!/usr/bin/env node
// `npm test`: every check CI runs, scheduled so a two-core machine is rarely idle.
//  1. At once: the unit and integration tests (vitest, several workers) and, beside them one at a
//     time, the web build and the other checks (format, lint with the import rules, typecheck).
//  2. The browser tests, on the build from step 1.
//  3. The browser tests that measure time (*.timed.e2e.ts), alone on a machine at rest.
// The unit phase alone leaves about a tenth of the two cores idle (1.77 of 2, measured with process
// accounting), about what the checks need: beside it they cost little, before it they cost ~75 s.
// The browser tests do not run beside the unit tests: at a load of 16-20 the real-process fault
// tests (kill -9 mid-load, a server restart mid-mail) went over their deadlines.
// Output of the test phases streams live, each line marked with its phase; a check's output is
// printed when it fails. The first failure stops the run.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

// The checks are package.json's own scripts, so `npm run lint` or `npm run typecheck` by hand is
// exactly what CI runs (one at a time now, they need not be split to run side by side).
const checks = [
  ['format', 'npm run -s format:check'],
  ['lint and import rules', 'npm run -s lint'],
  ['typecheck', 'npm run -s typecheck'],
];
const UNIT = ['unit and integration tests', 'vitest run'];
const BUILD = ['build', 'npm run -s build'];
const BROWSER = ['browser tests', 'vitest run --config e2e/vitest.config.ts'];
const TIMED = ['timed browser tests, one at a time', 'E2E_TIMED=1 vitest run --config e2e/vitest.config.ts'];

const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(0)} s`;
const children = new Set();

/**
 * Runs a shell command. With `tag` its output streams line by line, each line marked with the tag;
 * otherwise it is kept and printed only if the command fails.
 */
function run([name, command], { tag } = {}) {
  return new Promise((resolve) => {
    const t = Date.now();
    // Its own process group, so a failure elsewhere stops it with everything it started.
    const child = spawn(command, {
      shell: true,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' },
    });
    children.add(child);
    let out = '';
    for (const stream of [child.stdout, child.stderr]) {
      if (tag) createInterface({ input: stream }).on('line', (line) => console.log(`[${tag}] ${line}`));
      else stream.on('data', (d) => (out += d));
    }
    child.on('close', (code) => {
      children.delete(child);
      const r = { name, code: code ?? 1, out, took: seconds(t) };
      console.log(`${r.code === 0 ? 'ok  ' : 'FAIL'} ${name} (${r.took})`);
      if (r.code !== 0) {
        if (!tag) process.stdout.write(out);
        console.error(`npm test: ${name} failed (${seconds(started)})`);
        stopAll();
        process.exit(1);
      }
      resolve(r);
    });
  });
}

/** Stops every running command's process group (on a failure, or when the run itself is stopped). */
function stopAll() {
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopAll();
    process.exit(1);
  });
}

async function otherChecks() {
  for (const check of [BUILD, ...checks]) await run(check);
}

// The three test runs share one server bundle and migrated data directory
// (apps/server/src/test/process-files.ts): the first to need them names them in this file, and this
// script removes them when it ends, passed or failed.
const handoff = path.join(os.tmpdir(), `usdt-test-files-${process.pid}.json`);
process.env.TEST_PROCESS_FILES = handoff;
process.on('exit', () => {
  if (!existsSync(handoff)) return;
  const { dir, bundle } = JSON.parse(readFileSync(handoff, 'utf8'));
  for (const p of [dir, bundle, handoff]) rmSync(p, { recursive: true, force: true });
});

await Promise.all([run(UNIT, { tag: 'unit' }), otherChecks()]);
await run(BROWSER, { tag: 'browser' });
await run(TIMED, { tag: 'timed' });
console.log(`npm test: everything passed in ${seconds(started)}`);
