/**
 * Lighthouse, mobile preset, on /, /login and /dashboard (signed in, cold: no cache, no service
 * worker) of the built app served by the real server (issues 12 and 32). A figure, not a test:
 * `npm run build && npm run bench:lighthouse`. Uses Debian's Chromium (CHROME_PATH, default
 * /usr/bin/chromium); the scores are recorded in docs/benchmarks.md. Each run's line carries the
 * machine's load average: on a shared machine the scores are only comparable beside it.
 *
 * LIGHTHOUSE_BASELINE_DIST=<a copy of an older apps/web/dist> measures that build first, in the same
 * run, so the two can be compared under the same machine load; LIGHTHOUSE_RUNS=<n> runs each page n
 * times and prints the median performance score (one run on a shared machine is noisy).
 *
 * Ports (unset or 0: a free port): BENCH_PORT (the server), BENCH_MAIL_PORT (its SMTP capture),
 * BENCH_CHROME_PORT (Chromium's DevTools port). The server runs in an empty temporary directory, so
 * it reads no `.env` of the checkout (it loads `./.env` from its working directory at start).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { deposit, signUp } from '../e2e/api-helpers';
import { startServer, type E2EServer } from '../e2e/harness';
import { benchPort, checkBenchPorts } from './ports';

// LIGHTHOUSE_PAGES=/login (comma-separated) measures only those pages.
const PAGES = (process.env.LIGHTHOUSE_PAGES ?? '/,/login,/dashboard').split(',');
/** Pages measured signed in: a user with a deposit and a token in localStorage, nothing else cached. */
const SIGNED_IN = new Set(['/dashboard']);
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const BASELINE = process.env.LIGHTHOUSE_BASELINE_DIST;
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 1));

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

checkBenchPorts();
const SERVER_PORT = benchPort('BENCH_PORT');
/** The spawned server's options: a working directory with no `.env`, the SMTP capture's port. */
const SERVER_OPTS = { cwd: mkdtempSync(path.join(os.tmpdir(), 'usdt-lighthouse-cwd-')), mailPort: benchPort('BENCH_MAIL_PORT') };
const serverEnv = (env: Record<string, string> = {}) => ({ ...env, ...(SERVER_PORT ? { PORT: String(SERVER_PORT) } : {}) });

const chrome = await chromeLauncher.launch({
  // 0: chrome-launcher picks a free port.
  port: benchPort('BENCH_CHROME_PORT'),
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
});

/**
 * A cold signed-in visit: the origin's cache, service worker and storage wiped, then only the
 * session's token put back (Lighthouse is told not to reset storage, so it keeps the token).
 */
async function signInCold(server: E2EServer, token: string): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  try {
    const context = browser.contexts()[0]!;
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Storage.clearDataForOrigin', { origin: server.url, storageTypes: 'all' });
    await cdp.send('Network.clearBrowserCache');
    // A JSON answer of this origin: a page that loads no script, registers no worker, caches nothing.
    await page.goto(`${server.url}/api/health`);
    await page.evaluate((t) => {
      localStorage.setItem('auth_token', t);
      localStorage.setItem('is_admin', 'false');
    }, token);
    await page.close();
  } finally {
    // Leaves Chromium running: this only disconnects.
    await browser.close();
  }
}

async function measure(label: string, server: E2EServer): Promise<Record<string, number>> {
  console.log(`Lighthouse (mobile), ${label}, against ${server.url} on ${process.version}; load average ${load()}`);
  const out: Record<string, number> = {};
  let token: string | null = null;
  for (const path of PAGES) {
    const perf: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const signedIn = SIGNED_IN.has(path);
      if (signedIn) {
        if (!token) {
          const user = await signUp(server, 'Lighthouse User');
          await deposit(server, user, 120);
          token = user.token;
        }
        await signInCold(server, token);
      }
      const before = load();
      const result = await lighthouse(`${server.url}${path}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
        disableStorageReset: signedIn,
      });
      if (!result) throw new Error(`no Lighthouse result for ${path}`);
      const { categories, audits, runtimeError } = result.lhr;
      if (runtimeError || categories.performance?.score == null) {
        // e.g. NO_FCP when the machine is too loaded to paint within Lighthouse's limits: not a score.
        console.log(`${path.padEnd(10)} run failed: ${runtimeError?.code ?? 'no performance score'}`);
        continue;
      }
      perf.push(Math.round(categories.performance.score * 100));
      const scores = CATEGORIES.map((c) => `${c} ${Math.round((categories[c]?.score ?? 0) * 100)}`).join(', ');
      console.log(
        `${path.padEnd(10)} ${scores}; FCP ${audits['first-contentful-paint']?.displayValue}, LCP ${audits['largest-contentful-paint']?.displayValue}, TBT ${audits['total-blocking-time']?.displayValue}, CLS ${audits['cumulative-layout-shift']?.displayValue}; load average before ${before}, after ${load()}`,
      );
      if (signedIn && result.lhr.finalDisplayedUrl && !result.lhr.finalDisplayedUrl.endsWith(path))
        throw new Error(`${path} was not measured signed in: Lighthouse ended on ${result.lhr.finalDisplayedUrl}`);
      // What keeps a category below 100: the failing audits, so they can be fixed.
      for (const c of CATEGORIES) {
        for (const ref of categories[c]?.auditRefs ?? []) {
          const a = audits[ref.id];
          if (ref.weight > 0 && a && a.score !== null && a.score < 0.9) console.log(`   ${c}: ${a.id} (${a.score}) ${a.displayValue ?? ''}`);
        }
      }
      // Where the main thread went, for a TBT above zero: the scripts that cost the most.
      const boot = (audits['bootup-time']?.details as { items?: { url: string; scripting: number }[] } | undefined)?.items ?? [];
      const top = boot
        .slice(0, 3)
        .map((i) => `${i.url.replace(server.url, '')} ${Math.round(i.scripting)} ms`)
        .join(', ');
      if (top) console.log(`   scripting: ${top}`);
      // What moved, for a CLS above zero (Lighthouse's layout-shifts audit: the element and its share).
      const shifts =
        (audits['layout-shifts']?.details as { items?: { score: number; node?: { selector?: string; snippet?: string } }[] } | undefined)?.items ?? [];
      for (const i of shifts.slice(0, 3))
        console.log(`   layout shift ${i.score.toFixed(3)}: ${i.node?.selector ?? ''} ${(i.node?.snippet ?? '').slice(0, 120)}`);
    }
    out[path] = perf.length ? median(perf) : Number.NaN;
    if (RUNS > 1) console.log(`${path.padEnd(10)} median performance ${out[path]} over ${perf.length} of ${RUNS} runs; load average ${load()}`);
  }
  return out;
}

try {
  let base: Record<string, number> | null = null;
  if (BASELINE) {
    const server = await startServer(serverEnv({ WEB_DIST: path.resolve(BASELINE) }), SERVER_OPTS);
    try {
      base = await measure(`baseline ${BASELINE}`, server);
    } finally {
      await server.stop();
    }
  }
  const server = await startServer(serverEnv(), SERVER_OPTS);
  let now: Record<string, number>;
  try {
    now = await measure('this build', server);
  } finally {
    await server.stop();
  }
  if (base)
    for (const p of PAGES) console.log(`${p.padEnd(7)} performance ${base[p]} → ${now[p]} (ratio ${(now[p]! / base[p]!).toFixed(2)}); load average ${load()}`);
} finally {
  chrome.kill();
}
