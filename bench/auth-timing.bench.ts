import { createUser } from '../apps/server/src/test/factories';
import { LOGIN_BACKOFF_AFTER } from '../apps/server/src/modules/auth/login-failures';
import { emailKey } from '../apps/server/src/modules/auth/otp';
import { hashPassword } from '../apps/server/src/modules/auth/password';
import { benchContext, line, listen, ON_PGLITE } from './lib';

/**
 * Does the time of an answer tell a right password from a wrong one in the login back-off, or a
 * registered e-mail from an unknown one at forgot-password (issue 29, finding 2; server design
 * section 9: "not by … time beyond noise")? Over real HTTP, one request at a time, the two kinds
 * interleaved in a random order (so drift and the code mails sent after an answer fall on both
 * alike), BENCH_AUTH_N of each (default 500) after a warm-up. Prints medians and quartiles and a
 * two-sided Mann-Whitney U test (normal approximation with tie correction): a p-value well above
 * 0.05 means the two kinds cannot be told apart by their time at this sample size.
 */
export async function authTimingBench(): Promise<void> {
  const n = Number(process.env.BENCH_AUTH_N ?? 500);
  const { ctx, drop } = await benchContext();
  const { app, url } = await listen(ctx);
  try {
    const hash = await hashPassword('Secret123');
    const people = async (prefix: string, count: number) => {
      const out: string[] = [];
      for (let i = 0; i < count; i++) {
        const u = await createUser(ctx.db, ctx.secret, { email: `${prefix}${i}@bench.test` });
        await ctx.db.updateTable('users').set({ password_hash: hash }).where('id', '=', u.id).execute();
        out.push(u.email);
      }
      return out;
    };
    const post = async (path: string, body: object) => {
      const started = performance.now();
      const res = await fetch(`${url}/api/auth/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await res.arrayBuffer();
      return { ms: performance.now() - started, status: res.status };
    };
    const compare = async (label: string, a: { name: string; send: () => Promise<{ ms: number; status: number }> }, b: typeof a) => {
      const order = [...Array(n).fill(0), ...Array(n).fill(1)] as (0 | 1)[];
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      for (let i = 0; i < 50; i++) await (i % 2 ? a : b).send(); // warm-up
      const times: [number[], number[]] = [[], []];
      const statuses = new Set<string>();
      for (const k of order) {
        const r = await (k ? b : a).send();
        times[k].push(r.ms);
        statuses.add(`${k ? b.name : a.name} ${r.status}`);
      }
      const [sa, sb] = [summary(times[0]), summary(times[1])];
      const test = mannWhitney(times[0], times[1]);
      line(`${label}: ${a.name}, median (p25–p75)`, `${sa.median.toFixed(2)} ms (${sa.p25.toFixed(2)}–${sa.p75.toFixed(2)}), n=${n}`);
      line(`${label}: ${b.name}, median (p25–p75)`, `${sb.median.toFixed(2)} ms (${sb.p25.toFixed(2)}–${sb.p75.toFixed(2)}), n=${n}`);
      line(
        `${label}: Mann-Whitney U, two-sided`,
        `U=${test.u.toFixed(0)}, z=${test.z.toFixed(2)}, p=${test.p.toFixed(3)} (statuses: ${[...statuses].sort().join(', ')})`,
      );
    };

    console.log(`Auth timing (${ON_PGLITE ? 'PGlite' : 'PostgreSQL'}), ${n} requests of each kind, interleaved at random`);
    // Login in back-off: every e-mail of the pool past the threshold.
    const backOff = await people('backoff', 20);
    for (const e of backOff)
      await ctx.db
        .insertInto('login_failures')
        .values({ email_key: emailKey(ctx.secret, e), failures: LOGIN_BACKOFF_AFTER, last_failed_at: new Date() })
        .execute();
    let turn = 0;
    const next = (pool: string[]) => pool[turn++ % pool.length]!;
    await compare(
      'login in back-off',
      { name: 'right password', send: () => post('login', { email: next(backOff), password: 'Secret123' }) },
      { name: 'wrong password', send: () => post('login', { email: next(backOff), password: 'Wrong1234' }) },
    );
    // forgot-password: registered (verified) e-mails against e-mails nobody has.
    const known = await people('known', 20);
    const unknown = Array.from({ length: 20 }, (_, i) => `nobody${i}@bench.test`);
    await compare(
      'forgot-password',
      { name: 'registered e-mail', send: () => post('forgot-password', { email: next(known) }) },
      { name: 'unknown e-mail', send: () => post('forgot-password', { email: next(unknown) }) },
    );
  } finally {
    await app.close();
    await drop();
  }
}

function summary(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (f: number) => s[Math.min(s.length - 1, Math.floor(f * s.length))]!;
  return { median: q(0.5), p25: q(0.25), p75: q(0.75) };
}

/** Two-sided Mann-Whitney U test, normal approximation with tie correction and continuity correction. */
export function mannWhitney(a: number[], b: number[]): { u: number; z: number; p: number } {
  const all = [...a.map((v) => ({ v, g: 0 })), ...b.map((v) => ({ v, g: 1 }))].sort((x, y) => x.v - y.v);
  const n = all.length;
  let rankA = 0;
  let ties = 0;
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && all[j + 1]!.v === all[i]!.v) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) if (all[k]!.g === 0) rankA += rank;
    const t = j - i + 1;
    ties += t * t * t - t;
    i = j + 1;
  }
  const [n1, n2] = [a.length, b.length];
  const u = rankA - (n1 * (n1 + 1)) / 2;
  const mu = (n1 * n2) / 2;
  const sigma = Math.sqrt(((n1 * n2) / 12) * (n + 1 - ties / (n * (n - 1))));
  const z = sigma === 0 ? 0 : (Math.abs(u - mu) - 0.5) / sigma;
  return { u, z: Math.sign(u - mu) * z, p: Math.min(1, 2 * (1 - normalCdf(Math.abs(z)))) };
}

/** Φ(x) by Abramowitz–Stegun 7.1.26 (error < 1.5e-7). */
function normalCdf(x: number): number {
  const t = 1 / (1 + 0.3275911 * (x / Math.SQRT2));
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-(x * x) / 2);
  return 0.5 * (1 + erf);
}
