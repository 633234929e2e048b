import type { FastifyBaseLogger } from 'fastify';
import { resolveSessionSecret, type Config } from './config';
import type { DbKind, DB } from './db/types-handle';
import { createMailer, type Mailer } from './modules/mail/mailer';

/**
 * What every module needs, built once at start and passed in: the modules read their settings from
 * `config`, never from process.env (config.ts parses it; the CLI and the start-up read a few of their own,
 * all listed in .env.example and checked by env-example.engine-free.test.ts).
 */
export interface AppContext {
  config: Config;
  db: DB;
  dbKind: DbKind;
  /** Key material for token hashes and HMACs (SESSION_SECRET or the one kept in DATA_DIR). */
  secret: string;
  mailer: Mailer;
  /** The app's logger (pino): background work that has no request logs here (custody credits, halts). */
  log: FastifyBaseLogger;
  /**
   * The clock of the account-security rules (code lifetimes, resend waits, the guess budget, TOTP
   * steps): they take the time from here, never from the database's now(), so tests move it
   * forward instead of waiting.
   */
  now: () => Date;
}

/** The one way a context is built (server, CLI and tests): from the config and an open database. */
export function buildContext(config: Config, db: { db: DB; kind: DbKind }, log: FastifyBaseLogger): AppContext {
  return {
    config,
    db: db.db,
    dbKind: db.kind,
    secret: resolveSessionSecret(config),
    mailer: createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log, timeoutMs: config.smtpTimeoutMs }),
    now: () => new Date(),
    log,
  };
}
