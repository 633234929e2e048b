import pino from 'pino';
import { createContext } from './boot';
import { runCommand } from './cli/commands';
import { readControlFile } from './cli/control';
import { ConfigError, loadConfig, loadDotEnv } from './config';

/** `npm run cli -- <command> [args]`: works whether or not the server is running. */
async function main(): Promise<number> {
  const [name, ...args] = process.argv.slice(2).filter((a) => a !== '--');
  if (!name) {
    console.error('Usage: npm run cli -- <ledger:verify | jobs:roi --date YYYY-MM-DD | sandbox:pay <payment_id> <amount> | admin:create --email E --password P>');
    return 2;
  }
  loadDotEnv();
  const config = loadConfig();
  if (!config.databaseUrl) {
    const control = readControlFile(config.dataDir);
    if (control) {
      try {
        const res = await fetch(`http://127.0.0.1:${control.port}/api/internal/cli`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-control-secret': control.secret },
          body: JSON.stringify({ command: name, args }),
          signal: AbortSignal.timeout(10 * 60_000),
        });
        const body = (await res.json()) as { success: boolean; message?: string; data?: { output: string; exitCode: number } };
        if (!body.success || !body.data) {
          console.error(body.message ?? 'The server refused the command');
          return 1;
        }
        // Same streams as running the command here: failures go to stderr.
        (body.data.exitCode === 0 ? console.log : console.error)(body.data.output);
        return body.data.exitCode;
      } catch (err) {
        // No server answers (nothing listens on the port, or something that is not our server):
        // a stale control file, so open the data directory ourselves. But a server that took too
        // long is still holding DATA_DIR, and opening PGlite a second time could damage it.
        if ((err as { name?: string }).name === 'TimeoutError') {
          console.error(`The server on port ${control.port} did not finish the command in time; it may still be running it`);
          return 1;
        }
      }
    }
  }
  const { ctx, handle } = await createContext(config, pino({ level: 'warn' }));
  try {
    const result = await runCommand(ctx, name, args);
    (result.exitCode === 0 ? console.log : console.error)(result.output);
    return result.exitCode;
  } finally {
    ctx.mailer.close();
    await handle.close();
  }
}

main()
  .then((code) => process.exit(code))
  .catch((err: unknown) => {
    console.error(err instanceof ConfigError || err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
