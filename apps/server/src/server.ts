import pino from 'pino';
import { buildApp } from './app';
import { createContext } from './boot';
import { ConfigError, loadConfig } from './config';
import { startJobs } from './jobs/scheduler';

async function main(): Promise<void> {
  const config = loadConfig();
  const log = pino({ level: config.logLevel });
  const { ctx, handle } = await createContext(config, log);
  const app = await buildApp({ ctx, logger: { level: config.logLevel } });
  const jobs = config.jobsEnabled ? startJobs(ctx, app.log) : undefined;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Stop taking work, finish requests in flight, then let the running job end and close the db.
    await app.close();
    await jobs?.stop();
    ctx.mailer.close();
    await handle.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`USDT Stake is running at ${config.publicUrl} (database: ${ctx.dbKind})`);
}

main().catch((err: unknown) => {
  // One clear line, never a stack trace, for a misconfiguration.
  const message = err instanceof ConfigError || err instanceof Error ? err.message : String(err);
  console.error(`Startup failed: ${message}`);
  process.exit(1);
});
