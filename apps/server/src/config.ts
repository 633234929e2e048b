import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { z } from 'zod';
import { buildCustodyConfig, CustodyConfigError, ZCustodyEnv } from './modules/custody/config';
import { buildPayoutsConfig, PayoutsConfigError, ZPayoutsEnv } from './modules/payouts/config';

/**
 * Every environment variable the server reads, parsed once (server design, section 1); `.env.example`
 * lists each one with its default (env-example.engine-free.test.ts checks both ways).
 */
export const ZEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_URL: z.string().url().default('http://localhost:3000'),
  DATA_DIR: z.string().default('./data'),
  /** PGlite's buffer pool (postgresql.conf shared_buffers, e.g. 16MB); unset keeps PGlite's 128MB. */
  PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^\d+(kB|MB|GB)$/, 'must be a size such as 16MB')
    .optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().default('no-reply@localhost'),
  PAYMENTS_GATEWAY: z.enum(['sandbox', 'nowpayments', 'chain']).default('sandbox'),
  ...ZCustodyEnv,
  ...ZPayoutsEnv,
  NOWPAYMENTS_API_URL: z.string().url().default('https://api.nowpayments.io'),
  NOWPAYMENTS_API_KEY: z.string().optional(),
  NOWPAYMENTS_IPN_SECRET: z.string().optional(),
  NOWPAYMENTS_EMAIL: z.string().optional(),
  NOWPAYMENTS_PASSWORD: z.string().optional(),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_ISSUER_URL: z.string().url().default('https://accounts.google.com'),
  FACEBOOK_CLIENT_ID: z.string().optional(),
  FACEBOOK_CLIENT_SECRET: z.string().optional(),
  FACEBOOK_AUTH_URL: z.string().url().default('https://www.facebook.com/v19.0/dialog/oauth'),
  FACEBOOK_TOKEN_URL: z.string().url().default('https://graph.facebook.com/v19.0/oauth/access_token'),
  FACEBOOK_USERINFO_URL: z.string().url().default('https://graph.facebook.com/me?fields=id,name,email'),
  INSTAGRAM_CLIENT_ID: z.string().optional(),
  INSTAGRAM_CLIENT_SECRET: z.string().optional(),
  INSTAGRAM_AUTH_URL: z.string().url().default('https://api.instagram.com/oauth/authorize'),
  INSTAGRAM_TOKEN_URL: z.string().url().default('https://api.instagram.com/oauth/access_token'),
  INSTAGRAM_USERINFO_URL: z.string().url().default('https://graph.instagram.com/me?fields=id,username'),
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().min(6).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMIT_AUTH_PER_MIN: z.coerce.number().int().min(1).default(20),
  /** Money routes (withdraw, transfer, stake) per account and minute: one budget for the three together. */
  RATE_LIMIT_MONEY_PER_MIN: z.coerce.number().int().min(1).default(60),
  /** The start of every rate-limit key in Redis (REDIS_URL): deployments or test runs sharing one Redis use their own. */
  RATE_LIMIT_REDIS_PREFIX: z.string().min(1).max(100).default('usdt-rl:'),
  JOBS_ENABLED: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  WEB_DIST: z.string().optional(),
  /** Which proxies' X-Forwarded-For to believe: unset = none; a hop count; or addresses/CIDRs, comma-separated. */
  TRUST_PROXY: z
    .string()
    .regex(/^(\d{1,2}|[0-9a-zA-Z.:/,\s]+)$/, 'must be a hop count or a comma-separated list of addresses/CIDRs')
    .optional(),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** How old the money and payment totals on /metrics may be: each is an aggregate over a table. */
  METRICS_AGGREGATE_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  /** /api/health answers 503 while DATA_DIR (PGlite) has less free space than this. */
  HEALTH_DISK_FLOOR_MB: z.coerce.number().min(0).default(64),
  /** /api/health stays 503 this long after the last full-disk or out-of-resources failure. */
  HEALTH_FAILURE_HOLD_SECONDS: z.coerce.number().min(0).default(30),
  /** One SMTP connection, greeting or socket wait may take this long; the outbox lease is about twice it. */
  SMTP_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(600).default(30),
});

export type Config = ReturnType<typeof buildConfig>;

export class ConfigError extends Error {}

function emptyToUndefined(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === '' ? undefined : v]));
}

/**
 * Loads `.env` from the working directory when there is one, as `.env.example` suggests. A variable
 * already set in the environment wins over the file. Returns the names it set.
 */
export function loadDotEnv(file = path.resolve('.env'), env: Record<string, string | undefined> = process.env): string[] {
  if (!existsSync(file)) return [];
  const set: string[] = [];
  for (const [name, value] of Object.entries(parseEnv(readFileSync(file, 'utf8')))) {
    if (env[name] !== undefined || value === undefined) continue;
    env[name] = value;
    set.push(name);
  }
  return set;
}

/** Reads the environment once. Throws ConfigError with one line naming the bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ZEnv.safeParse(emptyToUndefined(env));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid configuration: ${issue.path.join('.')} ${issue.message}`);
  }
  return buildConfig(parsed.data);
}

function buildConfig(e: z.infer<typeof ZEnv>) {
  if (e.PAYMENTS_GATEWAY === 'nowpayments') {
    if (!e.NOWPAYMENTS_API_KEY) throw new ConfigError('Invalid configuration: NOWPAYMENTS_API_KEY is required when PAYMENTS_GATEWAY=nowpayments');
    if (!e.NOWPAYMENTS_IPN_SECRET) throw new ConfigError('Invalid configuration: NOWPAYMENTS_IPN_SECRET is required when PAYMENTS_GATEWAY=nowpayments');
  }
  let custody;
  let payouts;
  try {
    custody = buildCustodyConfig(e, e.PAYMENTS_GATEWAY === 'chain');
    payouts = buildPayoutsConfig(e, custody);
  } catch (err) {
    if (err instanceof CustodyConfigError || err instanceof PayoutsConfigError) throw new ConfigError(`Invalid configuration: ${err.message}`);
    throw err;
  }
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL.replace(/\/$/, ''),
    dataDir,
    pgliteSharedBuffers: e.PGLITE_SHARED_BUFFERS,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    sessionSecret: e.SESSION_SECRET,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    payments: {
      gateway: e.PAYMENTS_GATEWAY,
      nowpayments: {
        apiUrl: e.NOWPAYMENTS_API_URL.replace(/\/$/, ''),
        apiKey: e.NOWPAYMENTS_API_KEY,
        ipnSecret: e.NOWPAYMENTS_IPN_SECRET,
        email: e.NOWPAYMENTS_EMAIL,
        password: e.NOWPAYMENTS_PASSWORD,
      },
      custody,
      payouts,
    },
    oauth: {
      google: { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET, issuerUrl: e.GOOGLE_ISSUER_URL },
      facebook: {
        clientId: e.FACEBOOK_CLIENT_ID,
        clientSecret: e.FACEBOOK_CLIENT_SECRET,
        authUrl: e.FACEBOOK_AUTH_URL,
        tokenUrl: e.FACEBOOK_TOKEN_URL,
        userinfoUrl: e.FACEBOOK_USERINFO_URL,
      },
      instagram: {
        clientId: e.INSTAGRAM_CLIENT_ID,
        clientSecret: e.INSTAGRAM_CLIENT_SECRET,
        authUrl: e.INSTAGRAM_AUTH_URL,
        tokenUrl: e.INSTAGRAM_TOKEN_URL,
        userinfoUrl: e.INSTAGRAM_USERINFO_URL,
      },
    },
    admin: { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD },
    logLevel: e.LOG_LEVEL,
    rateLimitAuthPerMin: e.RATE_LIMIT_AUTH_PER_MIN,
    rateLimitMoneyPerMin: e.RATE_LIMIT_MONEY_PER_MIN,
    rateLimitRedisPrefix: e.RATE_LIMIT_REDIS_PREFIX,
    jobsEnabled: e.JOBS_ENABLED,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    metricsToken: e.METRICS_TOKEN,
    metricsAggregateSeconds: e.METRICS_AGGREGATE_SECONDS,
    health: { diskFloorBytes: Math.round(e.HEALTH_DISK_FLOOR_MB * 1024 * 1024), failureHoldMs: e.HEALTH_FAILURE_HOLD_SECONDS * 1000 },
    smtpTimeoutMs: Math.round(e.SMTP_TIMEOUT_SECONDS * 1000),
    webDist: e.WEB_DIST ? path.resolve(e.WEB_DIST) : path.resolve(import.meta.dirname, '../../web/dist'),
  };
}

function parseTrustProxy(v: string | undefined): false | number | string[] {
  if (!v) return false;
  if (/^\d+$/.test(v)) return Number(v);
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** SESSION_SECRET, or one generated on first start and kept in DATA_DIR so restarts keep it. */
export function resolveSessionSecret(config: Config): string {
  if (config.sessionSecret) return config.sessionSecret;
  const file = path.join(config.dataDir, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
