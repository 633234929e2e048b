import { loadSignerConfig } from '../apps/signer/src/config';
import { readMnemonic } from '../apps/signer/src/mnemonic';
import { buildSigner } from '../apps/signer/src/run';
import { serverApi, type ServerApi } from '../apps/signer/src/server-api';

/**
 * The signer as its own process for the payouts bench (payouts.bench.ts), as it runs in production:
 * its settings from its environment, its own PGlite store. The bench drives its passes over IPC
 * instead of a timer, so each pass is timed alone; the figures this process answers (its CPU, its
 * memory, its waits for the node and for the server) are the signer's only, not the server's that
 * runs in the bench's process.
 */
export type SignerOp = 'pay' | 'sweep' | 'stats' | 'stop';
export interface SignerStats {
  rpcMs: number;
  rpcCalls: number;
  serverMs: number;
  serverCalls: number;
  /** user + system CPU of this process since it started, µs */
  cpuUs: number;
  /** the process's peak resident memory since it started (its first start's initdb included), bytes */
  maxRss: number;
  /** the resident memory's high-water mark since the previous stats (sampled every 20 ms), bytes */
  rssPeak: number;
}
export type SignerAnswer =
  | { op: 'ready'; hot: string; maxRss: number; rss: number }
  | { op: 'pay' | 'sweep'; ms: number; result: Record<string, number> }
  | { op: 'stats'; stats: SignerStats }
  | { op: 'error'; message: string };

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

function timedApi(real: ServerApi, w: { ms: number; calls: number }): ServerApi {
  const time =
    <A extends unknown[], R>(fn: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      const t = performance.now();
      w.calls++;
      try {
        return await fn(...a);
      } finally {
        w.ms += performance.now() - t;
      }
    };
  return {
    payouts: time(real.payouts),
    report: time(real.report),
    heartbeat: time(real.heartbeat),
    sweeps: time(real.sweeps),
    sweepReport: time(real.sweepReport),
  };
}

async function main(): Promise<void> {
  const send = (a: SignerAnswer) => process.send!(a);
  const config = loadSignerConfig(process.env);
  const waits = { ms: 0, calls: 0 };
  const built = await buildSigner(config, readMnemonic(config.mnemonicFile), quiet, { api: timedApi(serverApi(config.serverUrl, config.token), waits) });
  const rpc = built.networks.get('bsc')!.rpc;
  let rssPeak = process.memoryUsage.rss();
  setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage.rss())), 20).unref();
  process.on('message', (m: { op: SignerOp }) => {
    const run = async (): Promise<SignerAnswer | null> => {
      if (m.op === 'stop') {
        await built.store.close();
        process.exit(0);
      }
      if (m.op === 'stats') {
        const cpu = process.cpuUsage();
        const answer: SignerAnswer = {
          op: 'stats',
          stats: {
            rpcMs: rpc.ms,
            rpcCalls: rpc.calls,
            serverMs: waits.ms,
            serverCalls: waits.calls,
            cpuUs: cpu.user + cpu.system,
            maxRss: process.resourceUsage().maxRSS * 1024,
            rssPeak: Math.max(rssPeak, process.memoryUsage.rss()),
          },
        };
        rssPeak = process.memoryUsage.rss();
        return answer;
      }
      const t = performance.now();
      const result = m.op === 'pay' ? await built.signer.tick() : await built.sweeper.tick();
      return { op: m.op, ms: performance.now() - t, result };
    };
    run().then(
      (a) => a && send(a),
      (err: unknown) => send({ op: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
    );
  });
  send({ op: 'ready', hot: built.hot.address, maxRss: process.resourceUsage().maxRSS * 1024, rss: process.memoryUsage.rss() });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
