import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { auth } from '@app/core/contracts';
import { api, deposit, signIn, signUp } from './api-helpers';
import { axeSerious, navigateInApp, newPage, SIZES } from './harness';
import { browserSuite } from './suites';

// The axe walk of every route, in a file of its own (it began in ux.e2e.ts): at about 200 s (when it
// loaded each route afresh) it was the longest group of browser tests, and in one file with the
// others the tail of the run.
const PUBLIC_ROUTES = ['/', '/privacy-policy', '/terms-conditions', '/signup', '/login', '/forgot-password', '/maintenance'];
const SIGNED_IN_ROUTES = [
  '/dashboard',
  '/income',
  '/transaction',
  '/wallet',
  '/setting',
  '/profile',
  '/support',
  '/disclaimer',
  '/transfer',
  '/transfer-history',
  '/team',
  '/withdrawal',
  '/deposit',
  '/demo-deposit',
  '/cancel',
  '/staking',
  '/staking/history',
  '/security',
];
const ADMIN_ROUTES = [
  '/admin/dashboard',
  '/admin/users',
  '/admin/withdrawals',
  '/admin/tickets',
  '/admin/payments',
  '/admin/settings',
  '/admin/operations',
  '/admin/audit-log',
  '/admin/security',
];

/**
 * Opens `path` as a person moving through the app does: the first screen of a walk is a full load,
 * the others are reached inside the app (navigateInApp), so axe-core checks every screen in one
 * document. The walk used to load each route afresh, 68 app starts and 68 injections of axe's engine
 * (about 0.9 CPU-s each on a 2-core machine). Loading each screen by its URL is tested elsewhere:
 * admin.e2e.ts walks every signed-in route so, tap-targets.e2e.ts the public ones.
 */
async function settle(page: Page, path: string, open: 'load' | 'in-app' | 'loaded' = 'in-app'): Promise<void> {
  if (open === 'load') await page.goto(path);
  if (open === 'in-app') await navigateInApp(page, path);
  await page.waitForLoadState('networkidle');
  // Spinners gone: the screen shows its data (or its empty/error state).
  await page.waitForFunction(() => !document.querySelector('.animate-spin'), undefined, { timeout: 15_000 }).catch(() => undefined);
}

describe('axe-core: no serious or critical violations on any route', () => {
  const suite = browserSuite({ ADMIN_EMAIL: 'axe-admin@example.test', ADMIN_PASSWORD: 'Admin123!Secret' });

  // Three tests a size, each with its own time budget: one test for all three walked past two
  // minutes on a saturated machine.
  for (const [size, viewport] of SIZES) {
    it(`signed out: every public route (${size})`, async () => {
      const found: string[] = [];
      const { page, context } = await newPage(suite.browser, suite.server.url, viewport);
      for (const [i, path] of PUBLIC_ROUTES.entries()) {
        // The landing page runs no React (main.tsx): the walk leaves it by a full load.
        await settle(page, path, i === 0 || PUBLIC_ROUTES[i - 1] === '/' ? 'load' : 'in-app');
        for (const v of await axeSerious(page)) found.push(`${path} ${v}`);
      }
      expect(found).toEqual([]);
      await context.close();
    });

    it(`signed in: every route, and the chain select's open list (${size})`, async () => {
      const found: string[] = [];
      const { page, context } = await newPage(suite.browser, suite.server.url, viewport);
      const u = await signUp(suite.server, `Axe ${size}`);
      await deposit(suite.server, u, 100);
      await signIn(page, u, SIGNED_IN_ROUTES[0]);
      for (const [i, path] of SIGNED_IN_ROUTES.entries()) {
        await settle(page, path, i === 0 ? 'loaded' : 'in-app');
        for (const v of await axeSerious(page)) found.push(`${path} ${v}`);
      }
      await settle(page, '/demo-deposit');
      await page.getByRole('button', { name: 'Select Chain' }).click();
      await page.getByRole('listbox').waitFor();
      for (const v of await axeSerious(page)) found.push(`/demo-deposit (chain list open) ${v}`);
      expect(found).toEqual([]);
      await context.close();
    });

    it(`as the admin: every admin route (${size})`, async () => {
      const found: string[] = [];
      const { page, context } = await newPage(suite.browser, suite.server.url, viewport);
      const login = await api(suite.server, auth.login, { body: { email: 'axe-admin@example.test', password: 'Admin123!Secret' } });
      expect(login.json.data?.token).toBeTruthy();
      await signIn(page, { token: login.json.data!.token!, username: '', email: '', password: '' }, ADMIN_ROUTES[0], true);
      for (const [i, path] of ADMIN_ROUTES.entries()) {
        await settle(page, path, i === 0 ? 'loaded' : 'in-app');
        for (const v of await axeSerious(page)) found.push(`${path} ${v}`);
      }
      expect(found).toEqual([]);
      await context.close();
    });
  }
});
