import pino from 'pino';
import { buildApp } from './app';
import { createContext } from './boot';
import { ConfigError, loadConfig, loadDotEnv } from './config';
import { listenUrl, loggerOptions } from './lib/logger';
import { startJobs } from './jobs/scheduler';
import { controlRoutes, newControlSecret, removeControlFile, writeControlFile } from './cli/control';
import { bootstrapAdmin } from './modules/admin/create-admin';

async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  const log = pino(loggerOptions(config.logLevel));
  const { ctx, handle } = await createContext(config, log);
  if (await bootstrapAdmin(ctx.db, config.admin.email, config.admin.password)) log.info({ email: config.admin.email }, 'admin created from ADMIN_EMAIL');
  // With PGlite the CLI cannot open DATA_DIR while we hold it, so it hands commands to us.
  const controlSecret = config.databaseUrl ? undefined : newControlSecret();
  const app = await buildApp({ ctx, logger: loggerOptions(config.logLevel), ...(controlSecret ? { extraRoutes: [controlRoutes(controlSecret)] } : {}) });
  const jobs = config.jobsEnabled ? startJobs(ctx, app.log) : undefined;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Stop taking work, finish requests in flight, then let the running job end and close the db.
    if (controlSecret) removeControlFile(config.dataDir);
    await app.close();
    await jobs?.stop();
    ctx.mailer.close();
    await handle.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  if (controlSecret && address && typeof address === 'object') writeControlFile(config.dataDir, address.port, controlSecret);
  app.log.info(`USDT Stake is listening on ${listenUrl(address)} (public URL ${config.publicUrl}, database: ${ctx.dbKind})`);
}

main().catch((err: unknown) => {
  // One clear line, never a stack trace, for a misconfiguration.
  const message = err instanceof ConfigError || err instanceof Error ? err.message : String(err);
  console.error(`Startup failed: ${message}`);
  process.exit(1);
});
