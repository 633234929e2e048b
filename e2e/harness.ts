import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { startMailbox } from '../apps/server/src/test/mailbox';
import { newDataDir } from '../apps/server/src/test/template-db';
import { cli as runCli, freePort, spawnProgram, untilHealthy } from '../apps/server/src/test/processes';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export { freePort };

export interface E2EServer {
  url: string;
  port: number;
  dataDir: string;
  mailbox: Awaited<ReturnType<typeof startMailbox>>;
  /** Runs `npm run cli -- <args>` against this server's data (hands off to the server when it holds PGlite). */
  cli: (args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>;
  stop: () => Promise<void>;
}

/**
 * Starts the built app (apps/web/dist) on a free port (or `env.PORT`), a temp DATA_DIR on PGlite (a copy of the
 * run's migrated template, e2e/global-setup.ts, unless `env.DATA_DIR` names one), and a real SMTP capture
 * (on `opts.mailPort`, default a free port). `opts.cwd` is the server's working directory (default the
 * repository's root, whose `.env` the server reads; a benchmark passes a directory without one).
 */
export async function startServer(env: Record<string, string> = {}, opts: { cwd?: string; mailPort?: number } = {}): Promise<E2EServer> {
  const mailbox = await startMailbox(opts.mailPort);
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const dataDir = env.DATA_DIR ?? newDataDir('usdt-e2e-');
  const fullEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    SMTP_URL: mailbox.url,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_AUTH_PER_MIN: '1000',
    DATABASE_URL: '',
    ...env,
  };
  const server = spawnProgram('server', [], fullEnv, opts.cwd);
  const url = `http://127.0.0.1:${port}`;
  await untilHealthy(server, url);
  const cli = (args: string[]) => runCli(fullEnv, args);
  return {
    url,
    port,
    dataDir,
    mailbox,
    cli,
    stop: async () => {
      server.child.kill('SIGTERM');
      await server.exited;
      await mailbox.close();
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      // Work a person's browser does for speed or for its own window, which a test pays for in CPU
      // at every new context (measured: 34 → 24 CPU-s for five contexts of three pages each):
      // - the omnibox's WebUI popups, a renderer of about 160 MB preloaded for each new window;
      // - the spare renderer started ahead of the next navigation, thrown away when a context closes.
      '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,SpareRendererForSitePerProcess',
    ],
  });
}

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1440, height: 900 };
/** The two screens a layout check runs at, with the name its test titles and screenshots carry. */
export const SIZES = [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const;

/** Collects the console errors and uncaught exceptions the app causes on `page` (a failed resource load is a test's own business). */
export function recordErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/Failed to load resource/.test(msg.text())) errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

/**
 * Whether a test's fresh profile runs the app's service worker. Off unless a test is about it: in a
 * fresh profile the worker precaches the whole shell (every script, style and icon) at the first
 * page, which every test paid for and only the PWA and offline tests look at. Without it every page
 * comes from the server, as on a person's first visit; the PWA and offline tests pass 'allow'.
 */
export type ServiceWorkers = 'allow' | 'block';

/**
 * A fresh browser profile for a test: the server as its base URL, the given screen, clipboard
 * access, and (unless 'allow') no service worker. `storageState` starts it with saved state, as a
 * person's browser on a later visit (pages.ts signedInPage).
 */
export function newTestContext(
  browser: Browser,
  baseURL: string,
  viewport: { width: number; height: number },
  serviceWorkers: ServiceWorkers = 'block',
  storageState?: BrowserContextOptions['storageState'],
): Promise<BrowserContext> {
  return browser.newContext({ baseURL, viewport, serviceWorkers, storageState, permissions: ['clipboard-read', 'clipboard-write'] });
}

/** A page that fails the test on any console error or CSP violation the app causes. */
export async function newPage(
  browser: Browser,
  baseURL: string,
  viewport = PHONE,
  serviceWorkers: ServiceWorkers = 'block',
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await newTestContext(browser, baseURL, viewport, serviceWorkers);
  const page = await context.newPage();
  const errors = recordErrors(page);
  // A signed-in page is painted from its pre-rendered HTML first, inert until React replaces it
  // (signed-in-layout.tsx): a test that measured or read that copy raced its removal. A load waits
  // for the live page, as a person does: nothing in the painted copy answers a touch either.
  const live = () => page.waitForFunction(() => document.querySelector('main[inert]') === null, undefined, { timeout: 30_000 });
  const goto = page.goto.bind(page);
  page.goto = async (...args: Parameters<Page['goto']>) => {
    const response = await goto(...args);
    await live();
    return response;
  };
  const reload = page.reload.bind(page);
  page.reload = async (...args: Parameters<Page['reload']>) => {
    const response = await reload(...args);
    await live();
    return response;
  };
  return { context, page, errors };
}

/**
 * The one place a test takes a screenshot. Screenshots are for a person looking at the screens
 * (SHOTS_DIR names where they go); no test reads them, so without SHOTS_DIR none is taken: a
 * full-page capture cost each run CPU and disk for files nobody opened. `viewportOnly` keeps what a
 * person sees first instead of the whole page. A scan refuses a screenshot taken anywhere else
 * (apps/server/src/test/screenshots.engine-free.test.ts).
 */
export async function screenshot(page: Page, name: string, { viewportOnly = false } = {}): Promise<void> {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  // Finite CSS animations run to their end first: a dialog shot 100 ms into its 300 ms fade-in
  // showed the page and the bottom bar through the panel, which is not what a person looks at.
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: !viewportOnly, animations: 'disabled' });
}

/** Extracts the 6-digit code from an OTP mail. */
export function otpFrom(text: string): string {
  const m = /\b(\d{6})\b/.exec(text);
  if (!m) throw new Error(`no OTP in mail: ${text}`);
  return m[1]!;
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Waits for every finite animation and transition on the page to end; endless ones (spinners, pulses) are left running. */
export async function animationsDone(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime ?? Infinity)))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/**
 * Moves `page` to `path` inside the app, as its own links do: a history entry React Router reads on
 * popstate, not a new document. A full load costs the machine about 0.6 CPU-s (and axe-core's engine
 * is injected again into the new document); this costs about 0.14. Resolves once the new screen has
 * rendered (its tab title, set per route, has changed), so `path` must title differently from the
 * current screen.
 */
export async function navigateInApp(page: Page, path: string): Promise<void> {
  const before = await page.title();
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForFunction((title) => document.title !== title, before, { timeout: 15_000 });
}

/**
 * Whether React has taken /login's pre-rendered form over (its fiber is on the element). Login is
 * pressable before that (the early login of issue 51), so an enabled button no longer says the
 * app is live: a link's router state, for one, only exists once it is.
 */
export const loginHydrated = (page: Page): Promise<boolean> =>
  page.evaluate(() => {
    const form = document.querySelector('form[data-early-form]');
    return form !== null && Object.keys(form).some((key) => key.startsWith('__reactFiber'));
  });

/** axe-core's serious and critical violations on the page as it is now ("rule: selector" lines). */
export async function axeSerious(page: Page): Promise<string[]> {
  // Contrast is judged on what a person sees once things settle: a dialog still fading in (opacity
  // below 1) reads as low contrast.
  await animationsDone(page);
  // Evaluated over the DevTools protocol, so the app's CSP does not apply to the injected engine.
  // Once per document: a walk that moves through the app's own links keeps the page's window, and
  // compiling the 550 KB engine again cost more than some of the checks (0.2–0.7 CPU-s).
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }> };
      }
    ).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${JSON.stringify(n.target)}`));
}
