import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { TEST_EVM_XPUB } from '../test/chain/test-keys';
import { startHungNode, type HungNode } from '../test/chain/hung-node';
import { testDbKind } from '../test/app';
import { freePort, newTarget, startServer, type ServerProc, type Target } from '../test/faults/procs';

/**
 * Issue 49: SIGTERM while the watcher waited on a hung node took 51.8 s to exit (the watcher's
 * five tries of a call with no timeout; compose allows 30 s). Closing the app now aborts every node
 * call in flight, so the real server exits within 10 s even with CHAIN_RPC_TIMEOUT_MS at its 10 s
 * default, which alone would hold the tick for 5 × 10 s.
 */
describe(`custody: SIGTERM while the watcher waits on a hung node (${testDbKind}, real process)`, () => {
  let hung: HungNode;
  let t: Target;
  const servers: ServerProc[] = [];
  afterEach(() => {
    for (const s of servers.splice(0)) if (s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill('SIGKILL');
  });
  afterAll(async () => {
    await hung?.close();
    await t?.drop();
  });

  it('exits within 10 s', async () => {
    hung = await startHungNode();
    t = await newTarget(testDbKind);
    const s = startServer(t, await freePort(), {
      PAYMENTS_GATEWAY: 'chain',
      CUSTODY_EVM_XPUB: TEST_EVM_XPUB,
      CHAIN_BSC_RPC_URL: hung.url,
      CHAIN_POLL_MS: '500',
      JOBS_ENABLED: 'true',
    });
    servers.push(s);
    await s.ready(60_000);
    // The scheduler's first tick comes about 2 s after start: wait until the watcher is inside a call to the node.
    for (let i = 0; i < 200 && hung.connections() === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(hung.connections(), 'the watcher never asked the node').toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 500));

    const started = performance.now();
    s.proc.kill('SIGTERM');
    const code = await Promise.race([s.exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 15_000))]);
    const ms = performance.now() - started;
    console.log(`SIGTERM with the watcher on a hung node: exited ${String(code)} after ${ms.toFixed(0)} ms`);
    expect(code, s.log()).toBe(0);
    expect(ms).toBeLessThan(10_000);
  });
});
