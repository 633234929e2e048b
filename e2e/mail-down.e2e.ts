import { CODE_DELAYED_MESSAGE } from '@app/core';
import { describe, expect, it } from 'vitest';
import { newPage, PHONE } from './harness';
import { browserSuite } from './suites';

/**
 * Sign-up while the mail server is down (issue 30, item 3): nothing listens on the SMTP port. The
 * spec's success toast stays as it is, and /verify-otp says plainly that the code could not be
 * sent yet and will follow, also after a reload.
 */
describe('sign-up while the mail server is down (browser)', () => {
  const suite = browserSuite({ SMTP_URL: 'smtp://127.0.0.1:1', SMTP_TIMEOUT_SECONDS: '2' });

  it('lands on /verify-otp with the spec toast and a notice that the code is late', async () => {
    const { page, errors, context } = await newPage(suite.browser, suite.server.url, PHONE);
    await page.goto('/signup');
    await page.getByLabel('Full Name').fill('Mia Late');
    await page.getByLabel('Email').fill(`late${Date.now()}@example.test`);
    await page.getByLabel('Password', { exact: true }).fill('Secret123!');
    await page.getByLabel('Confirm Password').fill('Secret123!');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL('**/verify-otp');
    await page.getByText('Registration successful! Otp Verification needed.').waitFor();
    await page.getByRole('status').filter({ hasText: CODE_DELAYED_MESSAGE }).waitFor();
    await page.reload();
    await page.getByRole('status').filter({ hasText: CODE_DELAYED_MESSAGE }).waitFor();
    await page.getByText('Resend code in').waitFor();
    await context.close();
    expect(errors).toEqual([]);
  });
});
