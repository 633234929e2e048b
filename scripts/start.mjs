#!/usr/bin/env node
// `npm start`: build the web app if it has not been built, then run the server (TypeScript through tsx).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (!existsSync(path.join(root, 'apps/web/dist/index.html'))) {
  console.log('Building the web app (first start)...');
  const r = spawnSync('npm', ['run', 'build', '-w', '@app/web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const { register } = await import('tsx/esm/api');
register();
await import(path.join(root, 'apps/server/src/server.ts'));
