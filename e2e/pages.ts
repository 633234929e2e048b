import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { deposit, signIn, signUp, type ApiUser } from './api-helpers';
import { newPage, newTestContext, PHONE, recordErrors, type E2EServer, type ServiceWorkers } from './harness';

// Apart from harness.ts because it asserts with vitest's expect (see suites.ts).

/** What browserSuite() gives a test. */
type Suite = { server: E2EServer; browser: Browser };
type OpenedPage = Awaited<ReturnType<typeof newPage>>;

/** A fresh page (one that records console errors, see newPage) signed in as `user` and opened at `path`. */
export async function openSignedIn(suite: Suite, user: ApiUser, path: string, viewport = PHONE, serviceWorkers: ServiceWorkers = 'block'): Promise<OpenedPage> {
  const opened = await newPage(suite.browser, suite.server.url, viewport, serviceWorkers);
  await signIn(opened.page, user, path);
  return opened;
}

/** Signs up a new user through the API and opens a fresh page signed in as them at `path`. */
export async function newUserPage(suite: Suite, name: string, path: string, viewport = PHONE): Promise<{ user: ApiUser } & OpenedPage> {
  const user = await signUp(suite.server, name);
  return { user, ...(await openSignedIn(suite, user, path, viewport)) };
}

/** Two new users, the sender with 100 deposited and on /transfer once the page shows it available. */
export async function senderOnTransferPage(
  suite: Suite,
  senderName: string,
  receiverName: string,
): Promise<{ sender: ApiUser; receiver: ApiUser } & OpenedPage> {
  const sender = await signUp(suite.server, senderName);
  const receiver = await signUp(suite.server, receiverName);
  await deposit(suite.server, sender, 100);
  const opened = await openSignedIn(suite, sender, '/transfer', PHONE);
  await opened.page.getByTestId('transfer-available').getByText('100.00').waitFor();
  return { sender, receiver, ...opened };
}

/** Ends a test's page: the app caused no console error or CSP violation on it, then its context closes. */
export async function closeWithoutErrors({ errors, context }: { errors: string[]; context: BrowserContext }): Promise<void> {
  expect(errors).toEqual([]);
  await context.close();
}

/** A fresh browser profile already signed in as `token` (as after a login in an earlier visit), with no cache and (unless `serviceWorkers` is 'allow') no service worker. */
export async function signedInPage(
  browser: Browser,
  server: E2EServer,
  token: string,
  viewport: { width: number; height: number },
  serviceWorkers: ServiceWorkers = 'block',
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await newTestContext(browser, server.url, viewport, serviceWorkers, {
    cookies: [],
    origins: [
      {
        origin: server.url,
        localStorage: [
          { name: 'auth_token', value: token },
          { name: 'is_admin', value: 'false' },
        ],
      },
    ],
  });
  const page = await context.newPage();
  return { context, page, errors: recordErrors(page) };
}

/** The visible one of a link that the phone's bottom bar and the desktop's side bar both hold. */
export const navLink = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).filter({ visible: true });
