import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { auth } from '@app/core/contracts';
import { api, deposit, signIn, signUp } from './api-helpers';
import { axeSerious, newPage, SIZES } from './harness';
import { browserSuite } from './suites';

// The axe walk of every route, apart from the rest of ux.e2e.ts: at about 200 s it is the longest
// group of browser tests, and in one file with the others it was the tail of the run.
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

async function settle(page: Page, path: string): Promise<void> {
  await page.goto(path);
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
      for (const path of PUBLIC_ROUTES) {
        await settle(page, path);
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
      await signIn(page, u, '/dashboard');
      for (const path of SIGNED_IN_ROUTES) {
        await settle(page, path);
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
      await signIn(page, { token: login.json.data!.token!, username: '', email: '', password: '' }, '/admin/dashboard', true);
      for (const path of ADMIN_ROUTES) {
        await settle(page, path);
        for (const v of await axeSerious(page)) found.push(`${path} ${v}`);
      }
      expect(found).toEqual([]);
      await context.close();
    });
  }
});
