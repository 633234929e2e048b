#!/usr/bin/env node
// `npm run typecheck`: every TypeScript project checked with TypeScript 7, the native compiler
// (`@typescript/native`, an alias of typescript@7). The five projects took 110 CPU-s with
// TypeScript 5.9 and take about 28 with 7, one thread each: beside the unit tests the machine has
// no idle core for the checker's extra threads (multi-threaded it cost 46 CPU-s for the same work).
// TypeScript 5.9 stays installed as `typescript` for the tools that read TypeScript through its
// JavaScript API (typescript-eslint's parser, dependency-cruiser), which 7 does not offer yet.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const tsc = path.join(path.dirname(createRequire(import.meta.url).resolve('@typescript/native/package.json')), 'bin/tsc');
const projects = ['packages/core', 'apps/server', 'apps/signer', 'apps/web', 'e2e', 'bench'];

for (const project of projects) {
  const { status } = spawnSync(process.execPath, [tsc, '-p', project, '--singleThreaded'], { stdio: 'inherit' });
  if (status !== 0) {
    console.error(`typecheck: ${project} has type errors`);
    process.exit(status ?? 1);
  }
}
