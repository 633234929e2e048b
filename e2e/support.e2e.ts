import { describe, expect, it } from 'vitest';
import { call, signIn, signUp } from './api-helpers';
import { newPage, PHONE, screenshot } from './harness';
import { browserSuite } from './suites';

describe('support ticket history pages (browser)', () => {
  const suite = browserSuite();

  it('shows the tickets 10 to a page, newest first, reaches the oldest, and a new ticket brings the first page back', async () => {
    const u = await signUp(suite.server, 'Many Tickets');
    // Ticket 1 is the oldest, ticket 12 the newest.
    for (let i = 1; i <= 12; i++) {
      const res = await call(suite.server, 'POST', '/api/support', { type: 'general', message: `Question number ${i} about my account` }, u.token);
      expect(res.status).toBe(200);
    }
    const api = await call<{ data: { message: string }[]; pagination: { total: number; page: number; perPage: number } }>(
      suite.server,
      'GET',
      '/api/support?page=2&per_page=10',
      undefined,
      u.token,
    );
    expect(api.json.data?.pagination).toEqual({ total: 12, page: 2, perPage: 10 });
    expect(api.json.data?.data.map((t) => t.message)).toEqual(['Question number 2 about my account', 'Question number 1 about my account']);

    const { page, errors, context } = await newPage(suite.browser, suite.server.url, PHONE);
    await signIn(page, u, '/support');
    await page.getByRole('heading', { name: "Support - We're Here to Help" }).waitFor();
    const region = page.getByRole('region', { name: 'Ticket History' });
    await region.getByText('Question number 12 about my account').waitFor();
    await page.getByText('Showing 1 to 10 of 12 entries').waitFor();
    expect(await region.getByText(/^Question number \d+ about my account$/).allTextContents()).toEqual(
      Array.from({ length: 10 }, (_, i) => `Question number ${12 - i} about my account`),
    );
    expect(await page.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: '2', exact: true }).click();
    await page.getByText('Showing 11 to 12 of 12 entries').waitFor();
    await region.getByText('Question number 1 about my account', { exact: true }).waitFor();
    expect(await region.getByText(/^Question number \d+ about my account$/).allTextContents()).toEqual([
      'Question number 2 about my account',
      'Question number 1 about my account',
    ]);
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    await screenshot(page, 'support-pages-phone');

    // A new ticket opened from page 2 shows on page 1, which the screen returns to.
    await page.getByLabel('Subject').selectOption('deposit');
    await page.getByLabel('Message').fill('My newest question about a deposit');
    await page.getByRole('button', { name: 'Submit Ticket' }).click();
    await page.getByText('Support ticket created!').waitFor();
    await page.getByText('Showing 1 to 10 of 13 entries').waitFor();
    await region.getByText('My newest question about a deposit').waitFor();
    expect(await page.getByRole('button', { name: '1', exact: true }).getAttribute('aria-current')).toBe('page');

    expect(errors).toEqual([]);
    await context.close();
  });
});
