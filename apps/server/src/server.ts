import pino from 'pino';
import { buildApp } from './app';
import { createContext } from './boot';
import { ConfigError, loadConfig, loadDotEnv } from './config';
import { listenUrl, loggerOptions } from './lib/logger';
import { startJobs, type Job } from './jobs/scheduler';
import { roiJob } from './jobs/roi-job';
import { mailJob } from './jobs/mail-job';
import { cleanupJob } from './jobs/cleanup-job';
import { paymentJobs } from './modules/payments/jobs';
import { teamDrainJob } from './modules/team/jobs';
import { custodyJobs } from './modules/custody/jobs';
import { payoutJobs } from './modules/payouts/confirm';
import type { AppContext } from './context';
import { controlRoutes, newControlSecret, removeControlFile, writeControlFile } from './cli/control';
import { bootstrapAdmin } from './modules/admin/create-admin';
import { holderIsGone, waitForDataDirLock, type DataDirLock } from './lib/data-dir-lock';

/**
 * Every background job this server runs (when JOBS_ENABLED): composed here, so the runner imports
 * no module. The chain gateway adds a watcher per configured network (issue 33).
 */
const jobsOf = (ctx: AppContext): readonly Job[] => [roiJob, ...paymentJobs, mailJob, cleanupJob, teamDrainJob, ...custodyJobs(ctx), ...payoutJobs(ctx)];

async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  const log = pino(loggerOptions(config.logLevel));
  const lock = config.databaseUrl ? undefined : await lockForServer(config.dataDir, log);
  // We hold DATA_DIR now: a control file left by a killed server names nobody.
  if (lock) removeControlFile(config.dataDir);
  const { ctx, handle } = await createContext(config, log, lock);
  if (await bootstrapAdmin(ctx.db, config.admin.email, config.admin.password)) log.info({ email: config.admin.email }, 'admin created from ADMIN_EMAIL');
  // With PGlite the CLI cannot open DATA_DIR while we hold it, so it hands commands to us.
  const controlSecret = config.databaseUrl ? undefined : newControlSecret();
  const app = await buildApp({ ctx, logger: loggerOptions(config.logLevel), ...(controlSecret ? { extraRoutes: [controlRoutes(controlSecret)] } : {}) });
  const runner = config.jobsEnabled ? startJobs(ctx, app.log, jobsOf(ctx)) : undefined;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Stop taking work, finish requests in flight, then let the running job end and close the db.
    if (controlSecret) removeControlFile(config.dataDir);
    await app.close();
    await runner?.stop();
    ctx.mailer.close();
    await handle.close();
    process.exit(0);
  };
  // A step that fails while closing would otherwise be an unhandled rejection: Node prints a
  // stack and exits 1 with nothing in the log saying which step it was.
  const stop = (signal: string) =>
    shutdown(signal).catch((err: unknown) => {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    });
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  if (controlSecret && address && typeof address === 'object') writeControlFile(config.dataDir, address.port, controlSecret);
  app.log.info(`USDT Stake is listening on ${listenUrl(address)} (public URL ${config.publicUrl}, database: ${ctx.dbKind})`);
}

/**
 * One process per PGlite data directory. A CLI command holding it is waited for (a cron job
 * during a restart); a holder that died is waited for until its lock goes stale; a live server
 * is refused, since two servers cannot share the files.
 */
async function lockForServer(dataDir: string, log: pino.Logger): Promise<DataDirLock> {
  const started = Date.now();
  let said = '';
  return waitForDataDirLock(
    dataDir,
    'server',
    (err) => {
      // Our refresh stalled past the stale time and another process may have the directory now:
      // writing on would damage it, so stop at once (PGlite recovers like after a crash).
      log.fatal({ err }, 'lost the DATA_DIR lock; stopping');
      process.exit(1);
    },
    (busy) => {
      const h = busy.holder;
      const why = !h ? 'unknown' : h.role === 'cli' ? 'cli' : holderIsGone(h) ? 'gone' : 'server';
      if (why === 'server' || (why === 'unknown' && Date.now() - started > 15_000) || Date.now() - started > 10 * 60_000) return false;
      if (why !== said) {
        said = why;
        log.info(
          why === 'cli'
            ? `waiting for the CLI command (pid ${h!.pid}) that holds DATA_DIR to finish`
            : 'waiting for the DATA_DIR lock of a process that has stopped to go stale',
        );
      }
      return true;
    },
  );
}

main().catch((err: unknown) => {
  // One clear line, never a stack trace, for a misconfiguration.
  const message = err instanceof ConfigError || err instanceof Error ? err.message : String(err);
  console.error(`Startup failed: ${message}`);
  process.exit(1);
});
