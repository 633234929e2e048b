import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testDbKind } from '../test/app';
import {
  checkAcknowledged,
  count,
  freePort,
  newTarget,
  seedUsers,
  startLoad,
  startServer,
  verifyLedger,
  withDb,
  type ServerProc,
  type Target,
} from '../test/faults/procs';

/** /api/health shows its details (db, disk, failure) only with this token or an admin session. */
const METRICS_TOKEN = 'fault-tests-metrics-token-0123456';

/**
 * A full disk under PGlite, for real: DATA_DIR is a small tmpfs mounted for this test (root only;
 * where mounting is impossible, e.g. an unprivileged container, the test says so and does not run),
 * the server writes until the disk is full, then the disk is freed again. While it is full every
 * request that needs to write answers 503 with Retry-After (never 500) and /api/health answers 503
 * naming the disk; once space is back the same process serves again, and nothing acknowledged is lost.
 */
function tryMount(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Fills the filesystem of `dir` to the last block; returns the filler files. */
function fillDisk(dir: string): string[] {
  const files: string[] = [];
  for (const chunk of [1 << 20, 1 << 12, 512]) {
    const file = path.join(dir, `filler-${files.length}`);
    files.push(file);
    const fd = openSync(file, 'w');
    const buf = Buffer.alloc(chunk, 1);
    try {
      for (;;) writeSync(fd, buf);
    } catch (err) {
      if ((err as { code?: string }).code !== 'ENOSPC') throw err;
    } finally {
      closeSync(fd);
    }
  }
  return files;
}

describe.runIf(testDbKind === 'pglite')('a full disk under PGlite (real server process, tmpfs DATA_DIR)', () => {
  let t: Target | undefined;
  let mounted = false;
  let server: ServerProc | undefined;
  afterAll(() => {
    if (server && server.proc.exitCode === null && server.proc.signalCode === null) server.proc.kill('SIGKILL');
    if (mounted && t) execFileSync('umount', ['-l', t.dataDir]);
    if (t) rmSync(t.dataDir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After and health 503 while the disk is full, and recovers without a restart', async () => {
    t = await newTarget('pglite');
    mounted = tryMount(t.dataDir, '96m');
    if (!mounted) {
      console.log('[faults] full disk: cannot mount a tmpfs here (needs root and CAP_SYS_ADMIN); not run');
      return;
    }
    const users = await seedUsers(t, 6, 100_000);
    server = startServer(t, await freePort(), { HEALTH_DISK_FLOOR_MB: '4', HEALTH_FAILURE_HOLD_SECONDS: '1', METRICS_TOKEN });
    await server.ready();
    const pid = server.proc.pid;
    const health = async () => {
      const res = await fetch(`${server!.url}/api/health`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as { data: Record<string, unknown> } };
    };
    expect((await health()).body.data).toMatchObject({ db: 'ok', disk: { free_bytes: expect.any(Number), floor_bytes: 4 * 1024 * 1024 } });

    // Before: money moves.
    const before = startLoad(server.url, users, { concurrency: 4, maxOps: 40 });
    const r1 = await before.done;
    expect(count(r1, (s) => s === 200)).toBeGreaterThan(0);

    // Full: keep writing until the database itself has run out of space several times.
    const fillers = fillDisk(t.dataDir);
    expect(await health()).toMatchObject({ status: 503, retryAfter: '5', body: { data: { db: 'ok', disk: { free_bytes: expect.any(Number) } } } });
    const during = startLoad(server.url, users, { concurrency: 4, maxOps: 100_000 });
    while (count(during.result, (s) => s >= 500) < 20 && during.result.noAnswer === 0) await new Promise((r) => setTimeout(r, 20));
    during.stop();
    const r2 = await during.done;
    expect(r2.noAnswer, server.log().slice(-2000)).toBe(0);
    // Only successes (space left in pages already allocated), refusals and 503s: never a 500.
    expect(
      [...r2.statuses.keys()].filter((s) => s >= 500 && s !== 503),
      server.log().slice(-2000),
    ).toEqual([]);
    // One 503 looked at closely (a write may still find room in a page already allocated: then 200).
    let refused: Response | undefined;
    for (let i = 0; i < 50 && !refused; i++) {
      const res = await fetch(`${server.url}/api/user/fund-transfer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${users[i % users.length]!.token}` },
        body: JSON.stringify({ username: users[(i + 1) % users.length]!.username, amount_usd: 10, type: 'deposit' }),
      });
      expect([200, 503]).toContain(res.status);
      if (res.status === 503) refused = res;
      else r2.transfers.push(((await res.json()) as { data: { id: string } }).data.id);
    }
    expect(refused).toBeDefined();
    expect(refused!.headers.get('retry-after')).toBe('30');
    expect(await refused!.json()).toEqual({ success: false, code: 'UNAVAILABLE', message: 'Service temporarily unavailable' });
    const full = await health();
    expect(full).toMatchObject({ status: 503, body: { success: false, data: { db: 'ok', failure: { reason: 'disk', code: '53100' } } } });

    // Freed: the same process serves again by itself, once the hold time (1 s here) has passed.
    for (const f of fillers) rmSync(f);
    let healthy = await health();
    for (let i = 0; i < 150 && healthy.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      healthy = await health();
    }
    expect(healthy.status).toBe(200);
    const after = startLoad(server.url, users, { concurrency: 4, maxOps: 40 });
    const r3 = await after.done;
    expect(count(r3, (s) => s >= 500)).toBe(0);
    expect(count(r3, (s) => s === 200)).toBeGreaterThan(0);
    expect(server.proc.pid).toBe(pid);
    expect(server.proc.exitCode).toBeNull();

    server.proc.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const found = await withDb(t, async (h) => {
      expect(await verifyLedger(h)).toMatchObject({ ok: true, totalOfAllBalances: '0' });
      return checkAcknowledged(h, [r1, r2, r3]);
    });
    expect(found.missing).toEqual([]);
    expect(readdirSync(t.dataDir).filter((f) => f.startsWith('filler-'))).toEqual([]);
    console.log(
      `[faults] pglite full disk: ${count(r2, (s) => s === 503)} × 503 and ${count(r2, (s) => s === 200)} × 200 while full, 0 × 500; health 503 (disk) → 200 after freeing, same process; ${found.transfers + found.stakes} acknowledged, all present`,
    );
  }, 120_000);
});
