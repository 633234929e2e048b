import { describe, expect, it } from 'vitest';
import { PHONE, screenshot } from './harness';
import { closeWithoutErrors, newUserPage } from './pages';
import { browserSuite } from './suites';

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('deposit states, amounts and history errors (phone walkthrough)', () => {
  const suite = browserSuite();

  it('the chain options read cleanly on /deposit and /demo-deposit (no nested parentheses)', async () => {
    const { page, errors, context } = await newUserPage(suite, 'Chain Reader', '/deposit', PHONE);
    await page.getByLabel('Chain').waitFor();
    const options = (await page.getByLabel('Chain').locator('option').allTextContents()).map(squash);
    expect(options).toEqual(['Select a chain', 'BSC · BEP20 · USDT', 'Polygon · MATIC · USDT', 'Tron · TRC20 · USDT']);
    for (const o of options) expect(o).not.toMatch(/\(.*\(/);
    await page.getByLabel('Chain').selectOption('usdttrc20');
    await screenshot(page, 'deposit-chain-select-phone');

    await page.goto('/demo-deposit');
    await page.getByRole('button', { name: 'Select Chain' }).click();
    const demo = (await page.getByRole('option').allTextContents()).map(squash);
    expect(demo).toEqual(['BSC BNB · USDT', 'Polygon MATIC · USDT', 'TRON TRX · USDT']);
    await screenshot(page, 'demo-deposit-chain-options-phone');
    await closeWithoutErrors({ errors, context });
  });
});
