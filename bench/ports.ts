/**
 * Every port a benchmark listens on, or hands to a process it starts, comes from the environment:
 * unset or 0 is a free port the system picks. No benchmark reads `.env` (a checkout's settings are
 * not a benchmark's), and none listens on a port written in its source
 * (apps/server/src/test/bench-env.engine-free.test.ts).
 */
export const BENCH_PORTS = {
  BENCH_PORT: 'the app server (every bench; Lighthouse: the spawned server)',
  BENCH_LOGGED_PORT: 'the wallet bench’s second app server, logging at info',
  BENCH_BARE_PORT: 'the wallet bench’s bare Fastify baseline',
  BENCH_ANVIL_PORT: 'the custody and payouts benches’ anvil node',
  BENCH_PROXY_PORT: 'the custody and payouts benches’ delaying proxy in front of anvil',
  BENCH_MAIL_PORT: 'Lighthouse: the SMTP capture the spawned server mails to',
  BENCH_CHROME_PORT: 'Lighthouse: Chromium’s DevTools port',
} as const;
export type BenchPortName = keyof typeof BENCH_PORTS;

/** The port `name` names (0: a free port); a value that is no port ends the run with one line. */
export function benchPort(name: BenchPortName, env: Record<string, string | undefined> = process.env): number {
  const raw = env[name]?.trim();
  if (!raw) return 0;
  const port = /^\d{1,5}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(port >= 0 && port <= 65_535)) {
    console.error(`${name}=${raw} is not a port: give 1-65535, or 0 or nothing for a free port (${BENCH_PORTS[name]}).`);
    process.exit(2);
  }
  return port;
}

/** Checks every port variable at once, before a bench seeds anything. */
export function checkBenchPorts(env: Record<string, string | undefined> = process.env): void {
  for (const name of Object.keys(BENCH_PORTS) as BenchPortName[]) benchPort(name, env);
}
