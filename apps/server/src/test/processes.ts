import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { nodeArgs } from './entry-points';

const root = path.resolve(import.meta.dirname, '../../../..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (a && typeof a === 'object' ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** stdout and stderr so far, for a failure message */
  output: () => string;
  exited: Promise<number | null>;
  stop: () => Promise<number | null>;
}

/**
 * A real server process (the run's bundle of `server.ts`, test/entry-points.ts) on a free port; resolves
 * once /api/health answers 200. Variables of the test runner that would change the server
 * (PORT, DATABASE_URL, …) are dropped unless `env` sets them.
 */
export async function startServer(env: Record<string, string>, timeoutMs = 120_000): Promise<ServerProcess> {
  const port = await freePort();
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ['PORT', 'HOST', 'DATABASE_URL', 'REDIS_URL', 'METRICS_TOKEN', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'LOG_LEVEL', 'JOBS_ENABLED']) delete base[k];
  const child = spawn(process.execPath, nodeArgs('server'), {
    cwd: root,
    env: { ...base, LOG_LEVEL: 'warn', JOBS_ENABLED: 'false', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    if (gone) throw new Error(`server exited during start: ${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy: ${out}`);
    }
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    child,
    output: () => out,
    exited,
    stop: async () => {
      if (!gone) child.kill('SIGTERM');
      return exited;
    },
  };
}
