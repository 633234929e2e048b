import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { admin, auth, staking, transfers, user, withdrawals } from '@app/core/contracts';
import { demoPayments, payments } from '@app/core/contracts/payments';
import { api, deposit, signIn, signUp, type ApiUser } from './api-helpers';
import { axeSerious, type E2EServer, navigateInApp, newPage, screenshot, SIZES } from './harness';
import { closeWithoutErrors, openSignedIn } from './pages';
import { startDemoPayment } from './money-forms';
import { browserSuite } from './suites';

/**
 * Issue 32, "Money first" (items 1–11): each check at 390×844 and 1440×900. The payments run once
 * and are watched from a phone page and a desktop page side by side, so the sandbox chain settles
 * each state once.
 */

const ADMIN = { email: 'money-ops@example.test', password: 'Operator-123!' };
const TRON_WALLET = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Every status word a badge ever showed on the page, with its colour (a MutationObserver from the first paint). */
async function recordBadges(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __badges: Set<string> };
    w.__badges = new Set();
    const scan = () =>
      document.querySelectorAll('section span').forEach((el) => {
        if (el.children.length) return;
        const text = (el.textContent ?? '').trim();
        if (/^(confirm|partial|finish|waiting|expired|failed|sending)/i.test(text)) w.__badges.add(`${text}|${getComputedStyle(el).color}`);
      });
    new MutationObserver(scan).observe(document, { subtree: true, childList: true, characterData: true });
  });
}
const badgesSeen = async (page: Page) =>
  (await page.evaluate(() => [...(window as unknown as { __badges: Set<string> }).__badges])).map((s) => {
    const [text, color] = s.split('|');
    return { text: text!, color: color! };
  });

/** Every toast text the page showed. */
async function recordToasts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __toasts: Set<string> };
    w.__toasts = new Set();
    const scan = () => document.querySelectorAll('[data-sonner-toast]').forEach((el) => w.__toasts.add(el.textContent ?? ''));
    new MutationObserver(scan).observe(document, { subtree: true, childList: true, characterData: true });
  });
}
const toastsSeen = (page: Page) => page.evaluate(() => [...(window as unknown as { __toasts: Set<string> }).__toasts]);

/** Green: Tailwind's emerald/green family (oklch hue 130–175, or an rgb whose green leads). */
function isGreen(color: string): boolean {
  const ok = /oklch\(([\d.]+)%? ([\d.]+) ([\d.]+)/.exec(color);
  if (ok) return Number(ok[2]) > 0.05 && Number(ok[3]) >= 130 && Number(ok[3]) <= 175;
  const rgb = /rgba?\((\d+), (\d+), (\d+)/.exec(color);
  return rgb ? Number(rgb[2]) > Number(rgb[1]) + 40 && Number(rgb[2]) > Number(rgb[3]) : false;
}
/** Grey: no real hue (oklch chroma under 0.05, or r, g and b within 25 of each other). */
function isGrey(color: string): boolean {
  const ok = /oklch\(([\d.]+)%? ([\d.]+)/.exec(color);
  if (ok) return Number(ok[2]) < 0.05;
  const rgb = /rgba?\((\d+), (\d+), (\d+)/.exec(color);
  if (!rgb) return false;
  const [r, g, b] = [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  return Math.max(r, g, b) - Math.min(r, g, b) < 25;
}

/** Polls the status (the status route allows 60 a minute per session, the page's own checks included). */
async function waitForStatus(server: E2EServer, user: ApiUser, paymentId: string, status: string, everyMs = 600): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const s = await api(server, demoPayments.status, { body: { payment_id: paymentId }, token: user.token });
    if (s.json.data?.status === status) return;
    if (Date.now() > deadline) throw new Error(`payment ${paymentId} never reached ${status}: ${JSON.stringify(s.json)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

async function createPayment(server: E2EServer, user: ApiUser, amount: number): Promise<{ paymentId: string; payAddress: string }> {
  const r = await api(server, demoPayments.create, { body: { amount, currency: 'usdtbsc' }, token: user.token });
  if (!r.json.data) throw new Error(JSON.stringify(r.json));
  return r.json.data;
}

const pay = (server: E2EServer, user: ApiUser, paymentId: string, amount: number) =>
  api(server, payments.sandboxPay, { params: { payment_id: paymentId }, body: { amount }, token: user.token });

/** Opens the first withdrawal on /transaction: $50.00 debited, the 5 % fee and what is sent on their own lines. */
async function expectWithdrawalDetails(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Withdrawals' }).click();
  await page.getByRole('button', { name: 'View' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Transaction Details' });
  await dialog.getByTestId('details-amount').waitFor();
  expect(squash(await dialog.getByTestId('details-amount').innerText())).toBe('$50.00');
  expect(squash(await dialog.innerText())).toContain('Fee 2.50 USDT');
  expect(squash(await dialog.innerText())).toContain('Sent to your wallet 47.50 USDT');
}

describe('issue 32, money first (items 1–11), phone and desktop', () => {
  const suite = browserSuite({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });

  it('items 1, 2, 6, 7, 8, 11: a short payment is never green, closes its address, stays; the full address is grouped; late money is explained', async () => {
    const u = await signUp(suite.server, 'Short Payer');
    const p = await createPayment(suite.server, u, 100);
    const pages = [];
    for (const [name, size] of SIZES) {
      const opened = await newPage(suite.browser, suite.server.url, size);
      await recordBadges(opened.page);
      await recordToasts(opened.page);
      await signIn(opened.page, u, '/demo-deposit');
      await opened.page.getByText('Payment Timer:').waitFor();
      pages.push({ name, ...opened });
    }
    for (const { page, name } of pages) {
      // Item 7: the whole address, in groups of 4, with its copy button; the amount is what to send.
      const shown = squash(await page.getByTestId('pay-address').innerText());
      expect(shown.replace(/ /g, '')).toBe(p.payAddress);
      expect(shown).toMatch(/^0x[0-9a-fA-F]{4}( [0-9a-fA-F]{4}){9}$/);
      await page.getByText('Send exactly', { exact: true }).waitFor();
      expect(await page.getByText(/^Minimum deposit amount: 100/).count()).toBe(0);
      // Item 8: under the timer, what happens to money that arrives late.
      await page.getByText('Money that arrives after the timer is still credited for what arrived.').waitFor();
      // Item 11: a USDT payment card says USDT.
      const card = page.getByTestId('open-payment').locator('xpath=..');
      expect(squash(await card.innerText())).toContain('100.00 USDT');
      expect(squash(await card.innerText())).not.toContain('USD ');
      await screenshot(page, `i32-panel-waiting-${name}`);
    }

    // Items 2 and 6: 60 of 100 arrives; both pages look while it is confirming and confirmed.
    expect((await pay(suite.server, u, p.paymentId, 60)).status).toBe(200);
    // `confirmed` lasts one sandbox step (2 s): look often.
    await waitForStatus(suite.server, u, p.paymentId, 'confirmed', 200);
    await Promise.all(pages.map(({ page }) => page.getByRole('button', { name: 'Check Status' }).click()));
    await Promise.all(pages.map(({ page }) => page.getByText('Confirming…').first().waitFor({ timeout: 3_000 })));
    await waitForStatus(suite.server, u, p.paymentId, 'partially_paid');
    await Promise.all(pages.map(({ page }) => page.getByRole('button', { name: 'Check Status' }).click()));
    for (const { page } of pages) await page.getByTestId('partial-box').waitFor();
    // Item 6: no countdown to another page for a partial payment: still here after 6 s (the redirect is 5 s).
    await pages[0]!.page.waitForTimeout(6_000);
    for (const { page, name, errors, context } of pages) {
      expect(new URL(page.url()).pathname).toBe('/demo-deposit');
      await page.getByTestId('partial-box').waitFor();
      expect((await toastsSeen(page)).filter((t) => t.includes('Redirecting'))).toEqual([]);
      // Item 1: a closed payment shows no QR and no address to pay, and offers a new deposit.
      await page.getByText('This address is closed, do not send to it').waitFor();
      expect(await page.getByTestId('payment-qr').count()).toBe(0);
      expect(await page.getByTestId('pay-address').count()).toBe(0);
      expect(await page.getByText('Send only USDT to this deposit address').count()).toBe(0);
      await page.getByRole('button', { name: 'Start a new deposit' }).waitFor();
      // Item 2: never a green 'confirmed' on the way to partially paid.
      const seen = await badgesSeen(page);
      expect(seen.some((b) => /^Confirming…/.test(b.text))).toBe(true);
      expect(seen.filter((b) => isGreen(b.color)).map((b) => b.text)).toEqual([]);
      await screenshot(page, `i32-panel-partial-${name}`);
      expect(await axeSerious(page)).toEqual([]);
      expect(errors).toEqual([]);
      if (name === 'desktop') await context.close();
    }

    // Phone: a new deposit from the closed panel; a finished one closes too; Stay here, then the
    // next finished payment redirects again (the timer is reset), with '1 second', not '1 seconds'.
    const { page, errors, context } = pages[0]!;
    await page.getByRole('button', { name: 'Start a new deposit' }).click();
    await expect.poll(() => page.getByLabel('Enter Amount').isEnabled()).toBe(true);
    expect(await page.getByTestId('partial-box').count()).toBe(0);
    for (const round of [1, 2]) {
      await startDemoPayment(page, 'BSC', '20');
      await page.getByText('Payment Timer:').waitFor();
      const pending = await api(suite.server, demoPayments.pending, { token: u.token });
      const id = pending.json.data!.find((x) => x.status === 'waiting')!.payment_id;
      await pay(suite.server, u, id, 20);
      await waitForStatus(suite.server, u, id, 'finished');
      await page.getByRole('button', { name: 'Check Status' }).click();
      await page.getByText(/Redirecting to transaction page in \d+ seconds?\.\.\./).waitFor();
      if (round === 1) {
        await page.getByRole('button', { name: 'Stay here' }).dispatchEvent('click');
        await page.getByText('This address is closed, do not send to it').waitFor();
        expect(await page.getByTestId('payment-qr').count()).toBe(0);
        await screenshot(page, 'i32-panel-finished-phone');
        await page.getByRole('button', { name: 'Start a new deposit' }).click();
      }
    }
    await page.waitForURL('**/transaction', { timeout: 15_000 });
    const toasts = await toastsSeen(page);
    expect(toasts.some((t) => t.includes('in 1 second...'))).toBe(true);
    expect(toasts.filter((t) => t.includes('1 seconds'))).toEqual([]);
    await closeWithoutErrors({ errors, context });
  });

  it('item 8: money sent to a payment after its window (here: cancelled) is credited for what arrived', async () => {
    const u = await signUp(suite.server, 'Late Payer');
    const p = await createPayment(suite.server, u, 50);
    expect((await api(suite.server, demoPayments.cancel, { body: { payment_id: p.paymentId }, token: u.token })).json.success).toBe(true);
    const late = await pay(suite.server, u, p.paymentId, 30);
    expect(late.json).toMatchObject({ success: true });
    await waitForStatus(suite.server, u, p.paymentId, 'partially_paid');
    const info = await api(suite.server, user.info, { token: u.token });
    expect(info.json.data!.user_detail.deposit_balance).toBe(30);
  });

  describe('with money moved between users', () => {
    let sponsor: ApiUser;
    let buddy: ApiUser;
    let small: ApiUser;
    let adminToken: string;
    let withdrawalId: string;
    beforeAll(async () => {
      sponsor = await signUp(suite.server, 'Money Sponsor');
      buddy = await signUp(suite.server, 'Money Buddy', sponsor.username);
      small = await signUp(suite.server, 'Small Earner');
      const smallReferral = await signUp(suite.server, 'Small Referral', small.username);
      await Promise.all([deposit(suite.server, buddy, 1030), deposit(suite.server, smallReferral, 620)]);
      // The sponsor earns 5% of 1000 (50); the small earner 5% of 620 (31).
      expect((await api(suite.server, staking.create, { body: { amount_usd: 1000 }, token: buddy.token })).status).toBe(200);
      expect((await api(suite.server, staking.create, { body: { amount_usd: 620 }, token: smallReferral.token })).status).toBe(200);
      // Transfers both ways: +20.00 from the buddy, −10.00 to the buddy.
      expect(
        (await api(suite.server, transfers.create, { body: { username: sponsor.username, amount_usd: 20, type: 'deposit' }, token: buddy.token })).status,
      ).toBe(200);
      expect(
        (await api(suite.server, transfers.create, { body: { username: buddy.username, amount_usd: 10, type: 'deposit' }, token: sponsor.token })).status,
      ).toBe(200);
      // A cancelled payment (nothing received) and a pending withdrawal of the whole 50.
      const p = await createPayment(suite.server, sponsor, 20);
      await api(suite.server, demoPayments.cancel, { body: { payment_id: p.paymentId }, token: sponsor.token });
      const w = await api(suite.server, withdrawals.create, {
        body: { amount_usd: 50, network: 'TRON', wallet_address: TRON_WALLET, token: 'USDT' },
        token: sponsor.token,
      });
      withdrawalId = w.json.data!.id;
      const login = await api(suite.server, auth.login, { body: ADMIN });
      adminToken = login.json.data!.token!;
    });

    it('items 3, 5, 9: /transaction shows a cancelled payment as 0.00 of 20.00 in grey, the withdrawal dialog keeps its headline, transfers are signed with a counterparty', async () => {
      for (const [name, size] of SIZES) {
        const { page, errors, context } = await openSignedIn(suite, sponsor, '/transaction', size);
        // Item 3.
        const amount = page.getByTestId('history-amount').first();
        await amount.waitFor();
        expect(squash(await amount.innerText())).toBe('$0.00 of $20.00');
        expect(isGrey(await amount.evaluate((el) => getComputedStyle(el).color))).toBe(true);
        await page.getByText('Cancelled', { exact: true }).first().waitFor();
        await screenshot(page, `i32-transaction-cancelled-${name}`);

        // Item 5: pending: the headline is what was debited, with the fee and what is sent.
        await expectWithdrawalDetails(page);
        await page.keyboard.press('Escape');

        // Item 9.
        await page.getByRole('tab', { name: 'Transfers' }).click();
        await page.getByText(`From ${buddy.username}`).first().waitFor();
        await page.getByText(`To ${buddy.username}`).first().waitFor();
        const amounts = (await page.getByTestId('history-amount').allInnerTexts()).map(squash);
        expect(amounts).toEqual(['−$10.00', '+$20.00']);
        await screenshot(page, `i32-transaction-transfers-${name}`);

        // The transfer history page says the same.
        await page.goto('/transfer-history');
        await page.getByText(`From ${buddy.username}`).first().waitFor();
        expect((await page.getByTestId('transfer-amount').allInnerTexts()).map(squash)).toEqual(['−10.00 USDT', '+20.00 USDT']);
        await closeWithoutErrors({ errors, context });
      }

      // Item 5, once paid: the same headline; the fee and what was sent stay separate lines.
      const done = await api(suite.server, admin.completeWithdrawal, { params: { id: withdrawalId }, body: { tx_hash: 'b'.repeat(64) }, token: adminToken });
      expect(done.status).toBe(200);
      for (const [name, size] of SIZES) {
        const { page, context } = await openSignedIn(suite, sponsor, '/transaction', size);
        await expectWithdrawalDetails(page);
        await screenshot(page, `i32-withdrawal-details-paid-${name}`);
        await context.close();
      }
    });

    it('items 4 and 10: Withdraw Funds is one rule ($50); the dashboard shows total assets and what is in flight', async () => {
      // A pending withdrawal of 10 (the API's minimum) and a deposit still waiting.
      const w = await api(suite.server, withdrawals.create, {
        body: { amount_usd: 10, network: 'TRON', wallet_address: TRON_WALLET, token: 'USDT' },
        token: small.token,
      });
      expect(w.status).toBe(200);
      const waiting = await createPayment(suite.server, small, 30);
      for (const [name, size] of SIZES) {
        const { page, errors, context } = await openSignedIn(suite, small, '/wallet', size);
        // Item 4: $21 is under the withdrawal page's $50: no button that bounces.
        await page.getByTestId('available-balance').waitFor();
        expect(await page.getByRole('link', { name: 'Withdraw Funds' }).count()).toBe(0);
        expect(await page.getByRole('button', { name: 'Withdraw Funds' }).isDisabled()).toBe(true);
        await page.getByText('Withdrawals open from a balance of $50').waitFor();
        await screenshot(page, `i32-wallet-under-50-${name}`);

        // Item 10.
        await page.goto('/dashboard');
        const assets = page.getByTestId('total-assets');
        await expect.poll(() => assets.innerText().then(squash), { timeout: 20_000 }).toContain('$21.00');
        const breakdown = squash(await page.getByTestId('assets-breakdown').innerText());
        expect(breakdown).toContain('Deposit $0.00');
        expect(breakdown).toContain('Income $21.00');
        expect(breakdown).toContain('Staked $0.00');
        const flight = page.getByTestId('in-flight');
        // The strip fills from two calls (payments and withdrawals) that answer in either order.
        const flightText = () => flight.innerText().then(squash);
        await expect.poll(flightText, { timeout: 20_000 }).toContain('Deposit of $30.00 waiting');
        await expect.poll(flightText, { timeout: 20_000 }).toContain('Withdrawal of $10.00 pending');
        await screenshot(page, `i32-dashboard-in-flight-${name}`);
        expect(await axeSerious(page)).toEqual([]);
        await flight.getByRole('link', { name: 'Reopen' }).click();
        await page.waitForURL('**/demo-deposit');
        expect(squash(await page.getByTestId('pay-address').innerText()).replace(/ /g, '')).toBe(waiting.payAddress);
        await closeWithoutErrors({ errors, context });
      }
    });
  });

  it('item 11: no signup error toast on the OTP page, a read-only profile, 44 px header buttons', async () => {
    const taken = await signUp(suite.server, 'Taken Email');
    for (const [name, size] of SIZES) {
      const { page, errors, context } = await newPage(suite.browser, suite.server.url, size);
      await page.goto('/signup');
      await page.getByLabel('Full name').fill('Toast Rider');
      await page.getByLabel('Email').fill(taken.email);
      await page.getByLabel('Password', { exact: true }).fill('Secret123');
      await page.getByLabel('Confirm password').fill('Secret123');
      await page.getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Create Account' }).click();
      const refusal = page.locator('[data-sonner-toast][data-type="error"]');
      await refusal.first().waitFor();
      await page.getByLabel('Email').fill(`rider-${name}-${Date.now()}@example.test`);
      await page.getByRole('button', { name: 'Create Account' }).click();
      await page.waitForURL('**/verify-otp');
      await page.getByRole('heading', { name: 'OTP Verification' }).waitFor();
      // Dismissed on success (it slides out in a few hundred ms); left alone it would stay its 4 s.
      await expect.poll(() => refusal.count(), { timeout: 1_000 }).toBe(0);
      await screenshot(page, `i32-otp-no-stale-toast-${name}`);
      await context.close();

      const signed = await newPage(suite.browser, suite.server.url, size);
      await signIn(signed.page, taken, '/profile');
      await signed.page.getByText(taken.username).first().waitFor();
      const boxed = await signed.page
        .locator('dl dd')
        .evaluateAll((dds) =>
          dds.filter((dd) => parseFloat(getComputedStyle(dd).borderTopWidth) > 0 || dd.classList.contains('input')).map((dd) => dd.textContent),
        );
      expect(boxed).toEqual([]);
      await screenshot(signed.page, `i32-profile-${name}`);
      const smallHeader: string[] = [];
      for (const path of ['/staking', '/team', '/transfer', '/staking/history', '/transfer-history', '/profile']) {
        await navigateInApp(signed.page, path);
        await signed.page.locator('main header h1').waitFor();
        smallHeader.push(
          ...(await signed.page.locator('main header').evaluateAll((headers) =>
            headers.flatMap((h) =>
              Array.from(h.querySelectorAll('a[href], button'))
                .map((el) => ({ el, r: el.getBoundingClientRect() }))
                .filter(({ r }) => r.width > 0 && (r.height < 43.5 || r.width < 43.5))
                .map(({ el, r }) => `${location.pathname} ${(el.textContent ?? '').trim()}: ${Math.round(r.width)}×${Math.round(r.height)}`),
            ),
          )),
        );
      }
      // The landing page's header too (its Login and section links were 36 px tall on a desktop).
      await signed.page.goto('/');
      await signed.page.getByTestId('navbar').waitFor();
      smallHeader.push(
        ...(await signed.page.getByTestId('navbar').evaluate((h) =>
          Array.from(h.querySelectorAll('a[href], button'))
            .filter((el) => el.checkVisibility())
            .map((el) => ({ el, r: el.getBoundingClientRect() }))
            .filter(({ r }) => r.width > 0 && (r.height < 43.5 || r.width < 43.5))
            .map(({ el, r }) => `/ ${(el.textContent ?? '').trim()}: ${Math.round(r.width)}×${Math.round(r.height)}`),
        )),
      );
      expect(smallHeader).toEqual([]);
      expect([...errors, ...signed.errors]).toEqual([]);
      await signed.context.close();
    }
  });
});
