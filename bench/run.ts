import { authTimingBench } from './auth-timing.bench';
import { custodyBench } from './custody.bench';
import { payoutsBench } from './payouts.bench';
import { roiBench } from './roi.bench';
import { teamBench } from './team.bench';
import { transfersBench } from './transfers.bench';
import { walletBench } from './wallet.bench';
import { benchPaths } from './legacy';
import { checkBenchPorts, DATABASE_URL } from './lib';

/**
 * `npm run bench`: prints figures, asserts nothing. Each figure sits beside its baseline from the
 * same run. Env: BENCH_DATABASE_URL (default TEST_DATABASE_URL or the local `test` database),
 * BENCH_SECONDS (load duration, default 10), BENCH_STAKES (default 100000), BENCH_AUTH_N (auth-timing
 * requests per kind, default 500), BENCH_ONLY (comma list: wallet, roi, transfers, team, auth-timing, custody, payouts), BENCH_CUSTODY_ADDRESSES / _TRANSFERS / _BLOCKS, BENCH_RPC_LATENCY_MS (custody: the third run's node round trip, 50; payouts: its part (c), 0 leaves it out),
 * BENCH_PAYOUTS / BENCH_SWEEPS (the signer: approved withdrawals paid, deposit addresses swept; 200, 1000), BENCH_LATENT_PAYOUTS / _SWEEPS (part (c): 50, 100).
 * BENCH_PATHS (new,old: also the transfer and ROI as they were before migration 0180, bench/legacy.ts).
 * Ports (unset or 0: a free port): BENCH_PORT, BENCH_LOGGED_PORT, BENCH_BARE_PORT, BENCH_ANVIL_PORT, BENCH_PROXY_PORT (bench/ports.ts).
 * No bench reads `.env`.
 */
async function main(): Promise<void> {
  checkBenchPorts();
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const stakes = Number(process.env.BENCH_STAKES ?? 100_000);
  console.log(
    `USDT Stake benchmarks against ${DATABASE_URL.replace(/\/\/[^@]*@/, '//')} on ${process.version}, ${(await import('node:os')).cpus().length} CPUs\n`,
  );
  // BENCH_ONLY=wallet,transfers runs a subset (profiling one path under `node --cpu-prof`).
  const only = process.env.BENCH_ONLY?.split(',');
  const benches: [string, () => Promise<void>][] = [
    ['wallet', () => walletBench(seconds)],
    ['roi', () => roiBench(stakes)],
    // BENCH_PATHS=new,old: each path in turn, each beside its own baseline (TRANSFER_HOT=8 for one size).
    [
      'transfers',
      async () => {
        for (const p of benchPaths()) await transfersBench(seconds, p);
      },
    ],
    ['team', () => teamBench(seconds)],
    // Issue 29: answer times of the login back-off and forgot-password (BENCH_AUTH_N per kind).
    ['auth-timing', () => authTimingBench()],
    ['custody', () => custodyBench()],
    // Issue 48: the signer's payouts with nonces in flight and its sweeps, its own time beside the node's.
    ['payouts', () => payoutsBench()],
  ];
  for (const [name, run] of benches) {
    if (only && !only.includes(name)) continue;
    await run();
    console.log('');
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
