import { beforeAll, describe, expect, it } from 'vitest';
import { staking } from '@app/core/contracts';
import { api, deposit, isoDay, signIn, signUp, type ApiUser } from './api-helpers';
import { axeSerious, newPage, screenshot, SIZES } from './harness';
import { browserSuite } from './suites';

describe('income and stakes on screen: the income chart and its states, stake progress, transaction details', () => {
  const suite = browserSuite();
  let sponsor: ApiUser;
  let staker: ApiUser;
  let newcomer: ApiUser;
  beforeAll(async () => {
    sponsor = await signUp(suite.server, 'Chart Sponsor');
    // A referral ID is the sponsor's username.
    staker = await signUp(suite.server, 'Chart Staker', sponsor.username);
    newcomer = await signUp(suite.server, 'Chart Newcomer');
    await deposit(suite.server, staker, 1000);
    expect((await api(suite.server, staking.create, { body: { amount_usd: 1000 }, token: staker.token })).status).toBe(200);
    // Three days of ROI on the stake (0.5% of 1000 a day): 15 of its 2,000 cap.
    const roi = await suite.server.cli(['jobs:roi', '--date', isoDay(3)]);
    expect(roi.code, roi.stderr).toBe(0);
  });

  for (const [size, viewport] of SIZES) {
    it(`shows the income chart with a summary and a table, and no serious axe violation (${size})`, async () => {
      const { page, errors, context } = await newPage(suite.browser, suite.server.url, viewport);
      await signIn(page, sponsor, '/income');
      const chart = page.getByTestId('income-chart');
      // The sponsor earned 5% of the 1,000 stake today, as referral income.
      await chart.getByTestId('income-chart-summary').getByText('$50.00').first().waitFor();
      expect(await chart.getByTestId('income-chart-summary').textContent()).toContain('Referral $50.00');
      const img = chart.getByRole('img');
      expect(await img.getAttribute('aria-labelledby')).toBeTruthy();
      expect(await chart.locator('rect[data-series="referral"]').count()).toBe(1);
      const box = (await img.boundingBox())!;
      expect(box.width).toBeGreaterThan(200);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      await chart.getByText('Show as table').click();
      await chart.getByRole('row').filter({ hasText: '$50.00' }).first().waitFor();
      await chart.getByRole('button', { name: '7 days' }).click();
      expect(await chart.getByRole('button', { name: '7 days' }).getAttribute('aria-pressed')).toBe('true');
      await chart.getByTestId('income-chart-summary').filter({ hasText: 'Last 7 days' }).waitFor();
      expect(await axeSerious(page)).toEqual([]);
      await screenshot(page, `ux3-income-chart-${size}`);
      expect(errors).toEqual([]);
      await context.close();
    });

    it(`shows 'No income yet', the loading state and the error state with Retry (${size})`, async () => {
      const { page, errors, context } = await newPage(suite.browser, suite.server.url, viewport);
      await signIn(page, newcomer, '/income');
      await page.getByTestId('income-chart-empty').getByText('No income yet').waitFor();
      expect(await axeSerious(page)).toEqual([]);
      await screenshot(page, `ux3-income-empty-${size}`);

      // Loading: the answer is held back until the screenshot is taken.
      let release: () => void = () => {};
      const held = new Promise<void>((r) => (release = r));
      await page.route('**/api/user/income-chart**', async (route) => {
        await held;
        await route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ success: false, message: 'Internal Server Error' }) });
      });
      await page.reload();
      await page.getByTestId('income-chart').getByText('Loading chart...').waitFor();
      await screenshot(page, `ux3-income-loading-${size}`);
      release();
      const chart = page.getByTestId('income-chart');
      await chart.getByRole('alert').waitFor();
      await chart.getByRole('button', { name: 'Retry' }).waitFor();
      await screenshot(page, `ux3-income-error-${size}`);
      await page.unroute('**/api/user/income-chart**');
      await chart.getByRole('button', { name: 'Retry' }).click();
      await chart.getByText('No income yet').waitFor();
      expect(errors).toEqual([]);
      await context.close();
    });

    it(`shows each stake's days and earned of cap with a progress bar on /staking/history (${size})`, async () => {
      const { page, errors, context } = await newPage(suite.browser, suite.server.url, viewport);
      await signIn(page, staker, '/staking/history');
      const progress = page.getByTestId('stake-progress').first();
      await progress.getByText('$15.00 of $2,000.00 earned').waitFor();
      await progress.getByText('Started today').waitFor();
      const bar = progress.getByRole('progressbar');
      expect(await bar.getAttribute('aria-valuenow')).toBe('0.7');
      expect(await bar.getAttribute('aria-valuemax')).toBe('100');
      const box = (await progress.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      expect(await axeSerious(page)).toEqual([]);
      await screenshot(page, `ux3-staking-history-${size}`);
      expect(errors).toEqual([]);
      await context.close();
    });

    it(`shows the transaction details with one date format and no word broken mid-word (${size})`, async () => {
      const { page, errors, context } = await newPage(suite.browser, suite.server.url, viewport);
      await signIn(page, staker, '/transaction');
      await page.getByRole('button', { name: 'View' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Transaction Details' });
      await dialog.waitFor();
      const text = (await dialog.textContent()) ?? '';
      expect(text).not.toMatch(/\b\d{1,2}\/\d{1,2}\/\d{2}\b/);
      expect(text).toMatch(/[A-Z][a-z]{2} \d{2}, \d{4}, \d{1,2}:\d{2} [AP]M/);
      expect(text).not.toMatch(/\bUSD\b/);
      // Values wrap between words; only the address and hash may break anywhere.
      const wraps = await dialog.locator('dd').evaluateAll((dds) => dds.map((d) => getComputedStyle(d).wordBreak));
      expect(wraps.filter((w) => w === 'break-all')).toEqual([]);
      expect(await axeSerious(page)).toEqual([]);
      await screenshot(page, `ux3-details-dialog-${size}`);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
