import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { nodeArgs, type EntryPoint } from './entry-points';

const root = path.resolve(import.meta.dirname, '../../../..');

/** Whether a server could listen on `port` of 127.0.0.1 right now (probed, then let go). */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/**
 * A port for a process a test starts, drawn below the kernel's ephemeral range (32768-60999 on
 * Linux). A port the kernel hands out for `listen(0)` comes from that range, and between the probe
 * letting it go and the child binding it, any outgoing connection on the machine (a PostgreSQL
 * client, a fetch, a browser) may take it as its local port: CI saw a server fail with EADDRINUSE
 * so. Outgoing connections never use ports below the range; the probe skips one a test holds.
 */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 50; tries++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await canListen(port)) return port;
  }
  throw new Error('no free port between 20000 and 32000');
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
 * One of our programs as a process (the run's bundle), with its stdout and stderr kept together; in
 * `cwd` (default the repository's root: the server reads a `.env` there, a benchmark's cwd has none).
 */
export function spawnProgram(entry: EntryPoint, args: string[], env: NodeJS.ProcessEnv, cwd = root): Omit<ServerProcess, 'url' | 'stop'> {
  const child = spawn(process.execPath, [...nodeArgs(entry), ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** Resolves once `url`/api/health answers 200; rejects if the process ends first or after timeoutMs. */
export async function untilHealthy(p: Omit<ServerProcess, 'url' | 'stop'>, url: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (p.child.exitCode !== null || p.child.signalCode !== null) throw new Error(`server exited (${p.child.exitCode ?? p.child.signalCode}):\n${p.output()}`);
    if (Date.now() > deadline) throw new Error(`server not healthy in ${timeoutMs} ms:\n${p.output()}`);
    const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) }).catch(() => undefined);
    if (res?.status === 200) return;
    await new Promise((r) => setTimeout(r, 150));
  }
}

/**
 * A real server process (the run's bundle of `server.ts`, test/entry-points.ts) on a free port;
 * resolves once /api/health answers 200. Variables of the test runner that would change the server
 * (PORT, DATABASE_URL, …) are dropped unless `env` sets them.
 */
export async function startServer(env: Record<string, string>, timeoutMs = 120_000): Promise<ServerProcess> {
  const port = await freePort();
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ['PORT', 'HOST', 'DATABASE_URL', 'REDIS_URL', 'METRICS_TOKEN', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'LOG_LEVEL', 'JOBS_ENABLED']) delete base[k];
  const p = spawnProgram('server', [], { ...base, LOG_LEVEL: 'warn', JOBS_ENABLED: 'false', ...env, PORT: String(port), HOST: '127.0.0.1' });
  const url = `http://127.0.0.1:${port}`;
  try {
    await untilHealthy(p, url, timeoutMs);
  } catch (err) {
    p.child.kill('SIGKILL');
    throw err;
  }
  return {
    url,
    ...p,
    stop: async () => {
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
      return p.exited;
    },
  };
}

const execFileP = promisify(execFile);

/** Runs the CLI as a process; a failing exit is an answer, not an exception. */
export async function cli(env: NodeJS.ProcessEnv, args: string[], timeoutMs = 180_000): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await execFileP(process.execPath, [...nodeArgs('cli'), ...args], { cwd: root, env, timeout: timeoutMs });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}
