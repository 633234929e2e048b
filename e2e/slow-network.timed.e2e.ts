import { describe, expect, it } from 'vitest';
import { PHONE, screenshot } from './harness';
import { navLink, signedInPage } from './pages';
import { browserSuite, fundedUser } from './suites';

/*
 * Issue 32's time limits on a slow network. A file of its own because it measures time: `npm test`
 * runs the *.timed.e2e.ts files after every other browser test, one at a time, so what it measures
 * is the app and the emulated network, not other tests' browsers taking the two cores (beside them
 * it read 3.1 s and 11.2 s on a saturated machine).
 */
describe('issue 32: a weak network, timed', () => {
  const suite = browserSuite();
  const funded = fundedUser(suite, 'Slow Network', 120);

  it('a cold signed-in load on a slow network (2,000 ms latency, 50 KiB/s) shows the shell within 3 s and the balance within 10 s', async () => {
    // With the service worker, as a person's first visit has it: its precache shares the slow link.
    const { context, page } = await signedInPage(suite.browser, suite.server, funded.user.token, PHONE, 'allow');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 2_000, downloadThroughput: 50 * 1024, uploadThroughput: 50 * 1024 });
    await page.goto('/dashboard', { waitUntil: 'commit' });
    await navLink(page, 'Home').waitFor({ timeout: 10_000 });
    const shellAt = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? performance.now());
    await page.getByTestId('deposit-balance').getByText('$120.00').waitFor({ timeout: 30_000 });
    const balanceAt = await page.evaluate(() => performance.now());
    console.log(`slow network: shell painted at ${Math.round(shellAt)} ms, balance shown by ${Math.round(balanceAt)} ms`);
    await screenshot(page, 'weak-12-slow-network-phone');
    expect(shellAt).toBeLessThanOrEqual(3_000);
    expect(balanceAt).toBeLessThanOrEqual(10_000);
    await context.close();
  });
});
