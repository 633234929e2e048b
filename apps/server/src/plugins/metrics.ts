import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { poolStats } from '../db/connect';
import { jobRunsOf } from '../jobs/runs';
import { dataDirSpace, failuresOf } from '../modules/health/failures';
import { custodyStatus, NETWORK_STATES } from '../modules/custody/service';
import { sendFailure } from '../lib/errors';

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

/**
 * Prometheus metrics at /metrics (prom-client), readable only with `Authorization: Bearer
 * $METRICS_TOKEN` and absent (404) when no token is configured: the figures name routes and money
 * totals, which are not for the public port. Request counts and latency are labelled with the
 * matched route pattern so ids in URLs do not explode the series. The database figures that
 * aggregate a whole table (balances by kind, payments and mails by status) are computed at most
 * once per METRICS_AGGREGATE_SECONDS, whatever the scrape rate; the ledger's size is read from
 * its primary key's index, never counted.
 */
export function registerMetrics(app: FastifyInstance): void {
  const ctx = app.ctx;
  const token = ctx.config.metricsToken;
  // One registry per app (not prom-client's global one): tests build several apps in a process.
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, matched route and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and matched route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // Callback-style (not async) hooks on the per-request path: no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    // Unmatched paths (404s, scans) share one label instead of one series per URL.
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status_code: String(reply.statusCode) });
    latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    done();
  });

  const jobRuns = new Counter({
    name: 'job_runs_total',
    help: 'Scheduled job ticks in this process, by job and outcome (skipped: another process held the job)',
    labelNames: ['job', 'outcome'] as const,
    registers: [registry],
  });
  const jobDuration = new Histogram({
    name: 'job_duration_seconds',
    help: 'Duration of scheduled job runs that did work (ok or failed)',
    labelNames: ['job'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
    registers: [registry],
  });
  const off = jobRunsOf(ctx).onRun((job, run) => {
    jobRuns.inc({ job, outcome: run.outcome });
    if (run.outcome !== 'skipped') jobDuration.observe({ job }, run.durationMs / 1000);
  });
  app.addHook('onClose', async () => void off());

  const unavailable = new Counter({
    name: 'db_unavailable_total',
    help: 'Requests answered 503 because the database or its storage could not serve them, by reason (connection, shutdown, database, auth, disk, resources)',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const offFailures = failuresOf(ctx).onRecord((f) => unavailable.inc({ reason: f.reason }));
  app.addHook('onClose', async () => void offFailures());
  new Gauge({
    name: 'data_dir_free_bytes',
    help: 'Free space in DATA_DIR where PGlite writes (absent with PostgreSQL); /api/health answers 503 under HEALTH_DISK_FLOOR_MB',
    registers: [registry],
    async collect() {
      const d = await dataDirSpace(ctx);
      if (d) this.set(d.free_bytes);
    },
  });

  new Gauge({
    name: 'db_pool_connections',
    help: 'PostgreSQL pool connections by state (total, idle, waiting clients); absent on PGlite',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const s = poolStats(ctx.db);
      if (!s) return;
      this.set({ state: 'total' }, s.total);
      this.set({ state: 'idle' }, s.idle);
      this.set({ state: 'waiting' }, s.waiting);
    },
  });
  const aggregates = cachedFor(ctx.config.metricsAggregateSeconds * 1000, async () => ({
    balances: await ctx.db
      .selectFrom('ledger_accounts')
      .select(['kind', (eb) => eb.fn.sum<bigint | number | string>('balance').as('total')])
      .groupBy('kind')
      .execute(),
    payments: await ctx.db
      .selectFrom('payments')
      .select(['status', (eb) => eb.fn.countAll<bigint | number | string>().as('n')])
      .groupBy('status')
      .execute(),
    mail: (await sql<{ status: string; n: bigint | number | string }>`select status, count(*) as n from mail_outbox group by status`.execute(ctx.db)).rows,
  }));

  new Gauge({
    name: 'ledger_balance_micro_usdt',
    help: 'Sum of ledger account balances by account kind, in micro-USDT (all kinds sum to zero)',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const rows = (await aggregates()).balances;
      // A gauge is a float by definition; micro-units stay exact up to 9e9 USDT per kind.
      for (const r of rows) this.set({ kind: r.kind }, Number(r.total));
    },
  });
  new Gauge({
    name: 'ledger_entries',
    help: 'Highest ledger entry id: the entries written, read from the primary key (ids of rolled-back entries included)',
    registers: [registry],
    async collect() {
      const r = await ctx.db
        .selectFrom('ledger_entries')
        .select((eb) => eb.fn.max<bigint | number | string>('id').as('n'))
        .executeTakeFirst();
      this.set(Number(r?.n ?? 0));
    },
  });
  const countByStatusGauge = (name: string, help: string, aggregate: 'payments' | 'mail') =>
    new Gauge({
      name,
      help,
      labelNames: ['status'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const r of (await aggregates())[aggregate]) this.set({ status: r.status }, Number(r.n));
      },
    });
  countByStatusGauge('payments', 'Payments by status', 'payments');
  countByStatusGauge('mail_outbox', 'Mails in the outbox queue by status', 'mail');

  // The chain gateway's watchers (custody.md): how far behind the node each is, whether halted, and its
  // deposits. One read of their state per scrape, shared by the gauges (collected concurrently).
  let scrape: { at: number; status: Promise<Awaited<ReturnType<typeof custodyStatus>>> } | null = null;
  const chainStatus = () => {
    if (!scrape || Date.now() - scrape.at > 500)
      scrape = { at: Date.now(), status: ctx.config.payments.gateway === 'chain' ? custodyStatus(ctx) : Promise.resolve([]) };
    return scrape.status;
  };
  const chainGauge = (
    name: string,
    help: string,
    read: (s: Awaited<ReturnType<typeof custodyStatus>>[number]) => [Record<string, string>, number][],
    labelNames: readonly string[] = ['network'],
  ) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        this.reset();
        for (const s of await chainStatus()) for (const [labels, v] of read(s)) this.set({ network: s.network, ...labels }, v);
      },
    });
  chainGauge('chain_lag_blocks', 'Blocks between the node head and what the watcher has read', (s) => (s.lag === null ? [] : [[{}, Number(s.lag)]]));
  chainGauge('chain_head_block', 'The node head the watcher last saw', (s) => (s.head === null ? [] : [[{}, Number(s.head)]]));
  chainGauge('chain_final_block', 'The credited line: deposits at or under it are final', (s) => (s.finalHeight === null ? [] : [[{}, Number(s.finalHeight)]]));
  chainGauge('chain_halted', '1 while a deep reorg keeps the network halted (an admin resumes it)', (s) => [[{}, s.halted ? 1 : 0]]);
  // The state /api/health reports per network, one series per state (1 for the current one), so an
  // alert can fire on stale (a silent node) or disputed (endpoints disagree on a transfer) by name.
  chainGauge(
    'chain_state',
    'The network state health reports: ok, stale, halted, disputed or unknown (1 for the current one)',
    (s) => NETWORK_STATES.map((state) => [{ state }, s.state === state ? 1 : 0]),
    ['network', 'state'],
  );
  chainGauge('chain_head_age_seconds', 'Seconds since the node head the watcher last saw was first seen', (s) =>
    s.headAgeS === null ? [] : [[{}, s.headAgeS]],
  );
  chainGauge('chain_deposits', 'Chain transfers by status', (s) => Object.entries(s.counts).map(([status, n]) => [{ status }, n]), ['network', 'status']);
  chainGauge('chain_credited_micro_usdt', 'Micro-USDT credited from chain transfers', (s) => [[{}, Number(s.creditedTotal)]]);

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!token) return sendFailure(reply, 'NOT_FOUND');
    if (!tokenMatches(request.headers.authorization, token)) {
      return sendFailure(reply.header('www-authenticate', 'Bearer'), 'UNAUTHENTICATED');
    }
    try {
      const body = await registry.metrics();
      return reply.type(registry.contentType).send(body);
    } catch (err) {
      request.log.error({ err }, 'metrics collection failed');
      return sendFailure(reply, 'UNAVAILABLE', { message: 'Metrics unavailable' });
    }
  });
}

/**
 * fn's last result while it is younger than ttlMs; one computation at a time (concurrent scrapes
 * share it), and a failure is not kept.
 */
function cachedFor<T>(ttlMs: number, fn: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    const now = Date.now();
    if (!last || now - last.at >= ttlMs) {
      const value = fn();
      last = { at: now, value };
      value.catch(() => {
        if (last?.value === value) last = undefined;
      });
    }
    return last.value;
  };
}
