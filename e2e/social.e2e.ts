import { describe, expect, it } from 'vitest';
import { newPage, PHONE, screenshot } from './harness';
import { socialSuite } from './suites';

describe('Continue with Google through a local OpenID provider (browser)', () => {
  const suite = socialSuite();

  it('a new user without a referral goes to the provider, comes back to /referral, registers, and lands on /dashboard', async () => {
    suite.provider.signInAs({ sub: 'google-e2e-1', email: `social${Date.now()}@example.test`, email_verified: true, name: 'Sofia Social' });
    const { page, errors, context } = await newPage(suite.browser, suite.server.url, PHONE);
    await page.goto('/signup');
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    await page.waitForURL('**/referral');
    await page.getByRole('heading', { name: 'One Last Step' }).waitFor();
    expect(await page.evaluate(() => JSON.parse(sessionStorage.getItem('socialUser') ?? '{}').name)).toBe('Sofia Social');
    await screenshot(page, 'referral-phone');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText('Referral updated successfully!').waitFor();
    await page.waitForURL('**/dashboard');
    await page.getByText('Sofia Social').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('socialUser'))).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a refused sign-in ends on /login with the failure toast', async () => {
    suite.provider.denyNext();
    const { page, context } = await newPage(suite.browser, suite.server.url, PHONE);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    await page.getByText('Google authentication failed').waitFor();
    await page.waitForURL('**/login');
    await context.close();
  });
});
