import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderMail, type MailKind } from '../apps/server/src/modules/mail/templates';
import { launchBrowser, PHONE, screenshot } from './harness';

/** Every mail the product sends, rendered as a mail client would show its HTML, at phone width. */
const SAMPLES: [MailKind, Record<string, string>][] = [
  ['otp_verify', { code: '482913' }],
  ['otp_login', { code: '105522' }],
  ['otp_reset', { code: '773104' }],
  ['deposit_credited', { amount: '100.00', network: 'BSC (BEP20)' }],
  ['withdrawal_requested', { amount: '50.00', fee: '2.50', receive: '47.50', network: 'TRON', address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8' }],
  [
    'withdrawal_completed',
    { amount: '50.00', receive: '47.50', network: 'BSC', tx_hash: '0x9fc76417374aa880d4449a1f7f31ec597f00b1f6f3dd2d66f4c9c6c445836d8b' },
  ],
  ['withdrawal_rejected', { amount: '50.00', reason: 'The address belongs to an exchange that does not accept this network.' }],
  ['password_changed', {}],
  ['password_reset', {}],
  ['two_factor_enabled', {}],
  ['two_factor_disabled', {}],
  ['ticket_answered', { ticket: '42', subject: 'deposit', message: 'It arrived: see your Deposit Balance.', closed: '' }],
];

describe('mail templates in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it.each(SAMPLES)('%s renders at phone width without overflow, with the text part saying the same', async (kind, payload) => {
    const mail = renderMail(kind, payload, 'Alice Example', 'https://app.example.com');
    const page = await browser.newPage({ viewport: PHONE });
    try {
      await page.setContent(mail.html);
      await expect(page.title()).resolves.toBe(mail.subject);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(PHONE.width);
      const visible = await page.evaluate(() => document.body.innerText);
      expect(visible).toContain('Hello Alice Example');
      for (const value of Object.values(payload)) {
        expect(visible).toContain(value);
        expect(mail.text).toContain(value);
      }
      await screenshot(page, `mail-${kind}`);
    } finally {
      await page.close();
    }
  });
});
