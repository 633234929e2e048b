import { beforeAll, describe, expect, it } from 'vitest';
import { signIn, signUp, type ApiUser } from './api-helpers';
import { axeSerious, loginHydrated, newPage, PHONE, screenshot, SIZES } from './harness';
import { closeWithoutErrors, openSignedIn } from './pages';
import { browserSuite } from './suites';

/*
 * The app's shell, before and around any screen's own content: a light, pre-rendered first paint of /
 * and /login that hydrates cleanly, visitors sent to sign up, a route whose code cannot load, an
 * installable PWA, a CSP the forms keep, and assets served compressed and cached.
 */
describe('the app shell: a light pre-rendered landing page and login, visitors sent to sign up, an installable PWA', () => {
  const suite = browserSuite();
  let user: ApiUser;
  beforeAll(async () => {
    user = await signUp(suite.server, 'Landing Person');
  });

  for (const [size, viewport] of SIZES) {
    it(`paints the landing page without the data, toast or signed-in code, and loads it on the first app screen (${size})`, async () => {
      const { page, errors, context } = await newPage(suite.browser, suite.server.url, viewport);
      const scripts: string[] = [];
      page.on('request', (r) => {
        if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
      });
      await page.goto('/');
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.locator('#FAQ').waitFor({ state: 'attached' });
      // Issue 32: the pre-rendered page and its small behaviour script, no React (framework, start) at all.
      expect(scripts.some((s) => s.includes('behaviour'))).toBe(true);
      expect(scripts.filter((s) => /framework|start|landing-page|signed-in|app-providers|api-client|schemas|zod/.test(s))).toEqual([]);
      await screenshot(page, `ux2-landing-${size}`);
      await page.goto('/login');
      await page
        .getByRole('button', { name: /log ?in/i })
        .first()
        .waitFor();
      // The login form is painted by its own HTML before any script: the chunk comes once the app has started.
      await expect.poll(() => scripts.some((s) => s.includes('signed-in')), { timeout: 15_000 }).toBe(true);
      await closeWithoutErrors({ errors, context });
    });

    it(`sends a first-time visitor from Start Farming and GET STARTED to /dashboard, whose guard shows /login (${size})`, async () => {
      const { page, errors, context } = await newPage(suite.browser, suite.server.url, viewport);
      for (const name of ['Start Farming', 'GET STARTED']) {
        await page.goto('/');
        const link = page.getByRole('link', { name, exact: true });
        expect(await link.getAttribute('href')).toBe('/dashboard');
        await link.click();
        await page.waitForURL('**/login');
        await page
          .getByRole('textbox', { name: /e-?mail/i })
          .first()
          .waitFor();
      }
      await screenshot(page, `ux2-visitor-login-${size}`);
      await closeWithoutErrors({ errors, context });
    });

    it(`shows a signed-in user 'Dashboard' instead of 'Sign up', and keeps sending them to /dashboard after signing out (${size})`, async () => {
      const { page, errors, context } = await openSignedIn(suite, user, '/', viewport);
      const bar = page.getByTestId('navbar');
      await bar.getByRole('link', { name: 'Dashboard', exact: true }).waitFor();
      expect(await bar.getByRole('link', { name: 'Sign up', exact: true }).count()).toBe(0);
      if (size === 'phone') {
        await page.getByRole('button', { name: 'Open menu' }).click();
        expect(await page.locator('#landing-menu').getByRole('link', { name: 'Create account' }).count()).toBe(0);
        await page.locator('#landing-menu').getByRole('link', { name: 'Dashboard', exact: true }).waitFor();
      }
      await screenshot(page, `ux2-landing-signed-in-${size}`);
      await bar.getByRole('link', { name: 'Dashboard', exact: true }).first().click();
      await page.waitForURL('**/dashboard');

      // Signed out (the token gone): the browser still remembers there is an account, so 'Welcome back'.
      await page.evaluate(() => localStorage.removeItem('auth_token'));
      await page.goto('/');
      await bar.getByRole('link', { name: 'Sign up', exact: true }).waitFor();
      // The pre-rendered page is a visitor's; the remembered account takes over once it hydrates.
      await page.locator('a[href="/dashboard"]', { hasText: 'Start Farming' }).waitFor();
      expect(await page.getByRole('link', { name: 'Start Farming', exact: true }).getAttribute('href')).toBe('/dashboard');
      await page.getByRole('link', { name: 'Start Farming', exact: true }).click();
      await page.waitForURL('**/login');
      await closeWithoutErrors({ errors, context });
    });
  }

  it('opens /#FAQ at the FAQ although the section arrives after the hero', async () => {
    const { page, errors, context } = await newPage(suite.browser, suite.server.url, PHONE);
    await page.goto('/#FAQ');
    await page.locator('#FAQ').waitFor({ state: 'attached' });
    await expect.poll(() => page.evaluate(() => Math.abs(document.getElementById('FAQ')!.getBoundingClientRect().top)), { timeout: 10_000 }).toBeLessThan(200);
    await closeWithoutErrors({ errors, context });
  });
  it("shows 'Unexpected Application Error!' when a route's code cannot load (spec section 2)", async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url, PHONE);
    await page.route(/\/assets\/privacy-policy-page-[^/]+\.js$/, (route) => route.abort());
    await page.goto('/privacy-policy');
    await page.getByRole('heading', { name: 'Unexpected Application Error!' }).waitFor();
    await screenshot(page, 'ux2-route-error-phone');
    await context.close();
  });

  it('is an installable PWA: a valid manifest with icons, a service worker that serves the shell and never answers /api', async () => {
    const manifestRes = await fetch(`${suite.server.url}/manifest.webmanifest`);
    expect(manifestRes.status).toBe(200);
    const manifest = (await manifestRes.json()) as {
      name: string;
      start_url: string;
      display: string;
      icons: { src: string; sizes: string; purpose?: string }[];
    };
    expect(manifest).toMatchObject({ name: 'USDT Stake', start_url: '/dashboard', display: 'standalone' });
    expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);
    for (const icon of manifest.icons) {
      const res = await fetch(`${suite.server.url}${icon.src}`);
      expect(res.headers.get('content-type'), icon.src).toBe('image/png');
    }

    const { page, errors, context } = await openSignedIn(suite, user, '/', PHONE, 'allow');
    expect(await page.locator('link[rel="manifest"]').getAttribute('href')).toBe('/manifest.webmanifest');
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL);
    expect(scope).toMatch(/\/sw\.js$/);
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

    const fromSw = new Map<string, boolean>();
    page.on('response', (r) => fromSw.set(new URL(r.url()).pathname, r.fromServiceWorker()));
    // The app shell now comes from the service worker's precache...
    await page.goto('/wallet');
    await page.getByRole('navigation', { name: 'Main' }).first().waitFor();
    expect(fromSw.get('/wallet')).toBe(true);
    // ...while every API answer comes from the server, and none is stored in any cache.
    await expect.poll(() => [...fromSw.keys()].some((p) => p.startsWith('/api/user/'))).toBe(true);
    const apiPaths = [...fromSw.keys()].filter((p) => p.startsWith('/api/'));
    expect(apiPaths.length).toBeGreaterThan(0);
    for (const p of apiPaths) expect(fromSw.get(p), p).toBe(false);
    const health = await page.goto('/api/health');
    expect(health!.fromServiceWorker()).toBe(false);
    expect(health!.status()).toBe(200);
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
      return urls;
    });
    expect(cached.length).toBeGreaterThan(10);
    expect(cached.filter((u) => u.startsWith('/api'))).toEqual([]);
    await closeWithoutErrors({ errors, context });
  });
  it('validates the login form without a CSP eval violation (zod runs jitless)', async () => {
    const { page, errors, context } = await newPage(suite.browser, suite.server.url, PHONE);
    await page.addInitScript(() => {
      const w = window as unknown as { __csp: string[] };
      w.__csp = [];
      document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    await page.goto('/login');
    await page
      .getByRole('textbox', { name: /e-?mail/i })
      .first()
      .fill('not-an-email');
    await page
      .getByRole('button', { name: /log ?in/i })
      .first()
      .click();
    await page.locator('[aria-invalid="true"]').first().waitFor();
    expect(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);
    await closeWithoutErrors({ errors, context });
  });
  for (const [size, viewport] of SIZES) {
    it(`paints / from pre-rendered HTML, hydrates it without an error, and shows a signed-in user Dashboard (${size})`, async () => {
      const html = await (await fetch(`${suite.server.url}/`)).text();
      expect(html).toContain('Put your USDT to work for');
      // The first screen only: the sections below load with their chunk.
      expect(html).toContain('Start Farming');
      // /login and /signup are pre-rendered too (their own pages, never the landing page); a path
      // with no page of its own, or /signup with an invite's ref, gets the splash.
      const login = await (await fetch(`${suite.server.url}/login`)).text();
      expect(login).toContain('Welcome back');
      expect(login).not.toContain('Put your USDT to work for');
      const signup = await (await fetch(`${suite.server.url}/signup`)).text();
      expect(signup).toContain('data-early-form="signup"');
      expect(signup).not.toContain('Put your USDT to work for');
      const shell = await (await fetch(`${suite.server.url}/signup?ref=AB12CD34E`)).text();
      expect(shell).toContain('<div id="root"><div class="flex min-h-dvh items-center justify-center" role="status">');
      expect(shell).not.toContain('Put your USDT to work for');
      // A signed-in page gets its own: the signed-in shell with the page's skeleton (issue 32).
      const dashboard = await (await fetch(`${suite.server.url}/dashboard`)).text();
      expect(dashboard).toContain('data-testid="dashboard-skeleton"');
      expect(dashboard).not.toContain('Put your USDT to work for');

      const { page, errors, context } = await newPage(suite.browser, suite.server.url, viewport);
      await page.goto('/');
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.getByTestId('typed-word').filter({ hasText: /\w/ }).waitFor();
      expect(await axeSerious(page)).toEqual([]);
      await screenshot(page, `ux3-landing-${size}`);
      // What a visitor sees first, the viewport alone (the full page is 10,000 px tall on a phone).
      await screenshot(page, `ux3-landing-first-screen-${size}`, { viewportOnly: true });
      await signIn(page, user, '/');
      await page.getByTestId('navbar').getByRole('link', { name: 'Dashboard', exact: true }).first().waitFor();
      expect(await page.getByRole('link', { name: 'Start Farming', exact: true }).getAttribute('href')).toBe('/dashboard');
      expect(errors).toEqual([]);
      await context.close();
    });

    it(`paints /login from pre-rendered HTML, hydrates it without an error, signs in, and still sends a signed-in user on /login away (${size})`, async () => {
      const { page, errors, context } = await newPage(suite.browser, suite.server.url, viewport);
      await page.goto('/login');
      // Pre-rendered for a guest: the form is there before any script runs.
      expect(await page.evaluate(() => document.title)).toBe('Log in · USDT Stake');
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password', { exact: true }).fill(user.password);
      // Hydrated: React has the form (Login is pressable earlier, by the early login) and its handlers answer.
      await expect.poll(() => loginHydrated(page), { timeout: 15_000 }).toBe(true);
      await page.getByRole('button', { name: 'Show password' }).click();
      expect(await page.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('text');
      expect(await axeSerious(page)).toEqual([]);
      await page.getByRole('button', { name: 'Login' }).click();
      await page.waitForURL('**/dashboard');
      expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeTruthy();
      // Signed in, /login is not the guest page the build rendered: the guard redirects as before.
      await page.goto('/login');
      await page.waitForURL('**/dashboard');
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});

describe('first paint: compressed, cached, indexable, titled', () => {
  const suite = browserSuite();

  it('serves brotli or gzip pre-compressed assets with a year of cache, robots.txt, sitemap.xml and a title per route', async () => {
    const html = await (await fetch(`${suite.server.url}/`)).text();
    const script = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1];
    expect(script).toMatch(/^\/assets\/.+\.js$/);
    for (const [accept, encoding] of [
      ['br, gzip', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const res = await fetch(`${suite.server.url}${script}`, { headers: { 'accept-encoding': accept } });
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    const robots = await fetch(`${suite.server.url}/robots.txt`);
    expect(robots.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await robots.text()).toContain('User-agent: *');
    const sitemap = await fetch(`${suite.server.url}/sitemap.xml`);
    expect(await sitemap.text()).toContain('<urlset');

    const { page, context } = await newPage(suite.browser, suite.server.url, PHONE);
    await page.goto('/login');
    await page.waitForFunction(() => document.title.startsWith('Log in'));
    await page.goto('/privacy-policy');
    await page.waitForFunction(() => document.title.startsWith('Privacy Policy'));
    await context.close();
  });
});
