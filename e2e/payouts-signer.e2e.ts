import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { admin, auth, staking, user, withdrawals } from '@app/core/contracts';
import { payments } from '@app/core/contracts/payments';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSignerConfig } from '../apps/signer/src/config';
import { readMnemonic } from '../apps/signer/src/mnemonic';
import { buildSigner } from '../apps/signer/src/run';
import { startAnvil, type Anvil } from '../apps/server/src/test/chain/anvil';
import { newDataDir } from '../apps/server/src/test/template-db';
import { TEST_EVM_XPUB, TEST_HOT_EVM_ADDRESS, TEST_MNEMONIC } from '../apps/server/src/test/chain/test-keys';
import { api, isoDay, signIn, signUp, type ApiUser } from './api-helpers';
import { freePort, launchBrowser, newPage, screenshot, SIZES, startServer, type E2EServer } from './harness';

const CONFIRMATIONS = 2;
const MAX_PAYOUT_USD = 20;
const ADMIN = { email: 'payout-ops@example.test', password: 'Payout-Ops-123' };
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * Issue 48 in the browser: PAYOUTS=signer on a local chain (one anvil, one server). A user's
 * withdrawal moves pending → approved (an admin presses Approve) → sent (the signer broadcast it;
 * the hash links to the explorer) → completed (the server's payouts:confirm job found it final), as
 * the user reads it on /transaction; and the admin's queue shows a payout the signer holds over its
 * per-payout limit, with the reason. The signer runs in this process and is driven a pass at a
 * time (tick), so each state is on screen before the next one starts.
 */
describe('payouts by the signer in the browser (anvil)', () => {
  let anvil: Anvil;
  let server: E2EServer;
  let browser: Browser;
  let signer: Awaited<ReturnType<typeof buildSigner>>;
  let adminToken: string;
  let payee: ApiUser;
  let payeeAddress: string;

  beforeAll(async () => {
    // The signer's database starts as a copy of the run's migrated server database (newDataDir): a
    // cluster already initialised, where a fresh PGlite directory costs an initdb (half a minute on
    // a loaded 2-core machine). Its own tables and migrations have names of their own, so the
    // server's unused tables beside them change nothing.
    const dataDir = path.join(newDataDir('e2e-signer-'), 'pglite');
    const browserUp = launchBrowser();
    anvil = await startAnvil();
    const token = await anvil.deployToken(18);
    await anvil.rpc('anvil_setBalance', [TEST_HOT_EVM_ADDRESS, '0x56BC75E2D63100000']);
    await anvil.mint(token, TEST_HOT_EVM_ADDRESS, 10n ** 18n * 1_000n);
    const signerToken = randomBytes(32).toString('hex');
    const port = await freePort();
    const mnemonicFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'e2e-signer-key-')), 'mnemonic');
    writeFileSync(mnemonicFile, `${TEST_MNEMONIC}\n`, { mode: 0o600 });
    const config = loadSignerConfig({
      SIGNER_MNEMONIC_FILE: mnemonicFile,
      SIGNER_SERVER_URL: `http://127.0.0.1:${port}`,
      SIGNER_TOKEN: signerToken,
      SIGNER_DATA_DIR: dataDir,
      SIGNER_OWN_SCAN: '5',
      SIGNER_MAX_PAYOUT_USD: String(MAX_PAYOUT_USD),
      CHAIN_BSC_RPC_URL: anvil.url,
      CHAIN_BSC_USDT: token,
      CHAIN_BSC_CONFIRMATIONS: String(CONFIRMATIONS),
    });
    // Its database opens while the server starts: it calls the server only when it is driven.
    const signerUp = buildSigner(config, readMnemonic(config.mnemonicFile), quiet);
    server = await startServer({
      PORT: String(port),
      PAYMENTS_GATEWAY: 'chain',
      CUSTODY_EVM_XPUB: TEST_EVM_XPUB,
      CHAIN_BSC_RPC_URL: anvil.url,
      CHAIN_BSC_USDT: token,
      CHAIN_BSC_DECIMALS: '18',
      CHAIN_BSC_CONFIRMATIONS: String(CONFIRMATIONS),
      CHAIN_POLL_MS: '300',
      // The sweep below needs the payee's deposit address read as holding the token (default: a minute).
      CHAIN_BALANCES_POLL_MS: '1000',
      PAYOUTS: 'signer',
      SIGNER_TOKEN_HASH: createHash('sha256').update(signerToken).digest('hex'),
      CUSTODY_HOT_EVM_ADDRESS: TEST_HOT_EVM_ADDRESS,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    });
    adminToken = (await api(server, auth.login, { body: ADMIN })).json.data!.token!;

    // The payee's 60 of income: 1000 deposited on chain to their own address, staked, 12 days of ROI.
    payee = await signUp(server, 'Payout Payee');
    payeeAddress = (await api(server, payments.addresses, { token: payee.token })).json.data!.usdtbsc!;
    await anvil.mint(token, payeeAddress, 10n ** 18n * 1_000n);
    await anvil.mine(CONFIRMATIONS);
    for (const deadline = Date.now() + 30_000; ;) {
      if ((await api(server, user.info, { token: payee.token })).json.data?.user_detail.deposit_balance === 1000) break;
      if (Date.now() > deadline) throw new Error('the deposit of 1000 on chain was not credited in 30 s');
      await new Promise((r) => setTimeout(r, 300));
    }
    expect((await api(server, staking.create, { body: { amount_usd: 1000 }, token: payee.token })).status).toBe(200);
    // The console runs ROI only up to today with a real gateway; the CLI moves time forward.
    expect((await server.cli(['jobs:roi', '--date', isoDay(12)])).code).toBe(0);

    signer = await signerUp;
    browser = await browserUp;
  });
  afterAll(async () => {
    await signer?.store.close();
    await browser?.close();
    await server?.stop();
    await anvil?.close();
  });

  const withdraw = async (amount: number) => {
    const res = await api(server, withdrawals.create, {
      body: { amount_usd: amount, network: 'BSC', wallet_address: `0x${randomBytes(20).toString('hex')}`, token: 'USDT' },
      token: payee.token,
    });
    expect(res.json).toMatchObject({ success: true });
    return res.json.data!.id;
  };
  /** The withdrawal as the admin's queue has it (its hash once sent). */
  const adminRow = async (id: string) => {
    const res = await api(server, admin.withdrawals, { query: { page: 1 }, token: adminToken });
    return res.json.data!.data.find((w) => w.id === id)!;
  };
  /** The user's newest withdrawal on /transaction, read again (a reload, as a person would) until its badge says `status`. */
  async function userSees(page: Page, status: string) {
    const newest = async () => {
      const view = page.getByRole('button', { name: 'View' }).first();
      await view.waitFor();
      return squash(await page.locator('tr').filter({ has: view }).first().innerText());
    };
    if ((await newest()).includes(status)) return;
    // Completed waits for the server's job after the blocks are mined: on a loaded machine, more than the default 15 s.
    await expect
      .poll(
        async () => {
          await page.reload();
          return newest();
        },
        { timeout: 30_000 },
      )
      .toContain(status);
  }
  async function openDetails(page: Page) {
    await page.getByRole('button', { name: 'View' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Transaction Details' });
    await dialog.getByTestId('details-amount').waitFor();
    return dialog;
  }

  for (const [size, viewport] of SIZES) {
    it(`the user sees a withdrawal go pending → approved → sent (explorer link) → completed (${size})`, async () => {
      const id = await withdraw(10);
      const u = await newPage(browser, server.url, viewport);
      await signIn(u.page, payee, '/transaction?tab=withdrawal');
      await userSees(u.page, 'Pending');

      // The admin approves it in the console, at the same size.
      const a = await newPage(browser, server.url, viewport);
      await signIn(a.page, { ...payee, token: adminToken }, '/admin/withdrawals', true);
      await a.page.getByRole('region', { name: 'Signer' }).waitFor();
      const row = a.page
        .locator('tr')
        .filter({ hasText: '$9.50' })
        .filter({ has: a.page.getByRole('button', { name: 'Approve' }) });
      await row.getByRole('button', { name: 'Approve' }).click();
      await a.page.getByRole('button', { name: 'Approve payout' }).click();
      await a.page.getByRole('dialog').waitFor({ state: 'detached' });
      await expect.poll(async () => (await adminRow(id)).status).toBe('approved');
      await userSees(u.page, 'Approved');
      expect(squash(await (await openDetails(u.page)).innerText())).toContain('Approved: the payout is being sent');
      await u.page.keyboard.press('Escape');

      // One pass of the signer: signed, claimed with the server, broadcast.
      expect(await signer.signer.tick()).toMatchObject({ signed: 1 });
      const sent = await adminRow(id);
      expect(sent).toMatchObject({ status: 'sent', tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
      await userSees(u.page, 'Sent');
      await screenshot(u.page, `payout-user-sent-list-${size}`, { viewportOnly: true });
      const dialog = await openDetails(u.page);
      const link = dialog.getByRole('link', { name: /^0x/ });
      expect(await link.getAttribute('href')).toBe(`https://bscscan.com/tx/${sent.tx_hash}`);
      expect(squash(await dialog.innerText())).toContain('Sent on chain: waiting for the transaction to be final');
      await screenshot(u.page, `payout-user-sent-${size}`);
      await u.page.keyboard.press('Escape');

      // Final under the depth: the server's payouts:confirm job completes it on the chain's evidence.
      await anvil.mine(CONFIRMATIONS + 1);
      await userSees(u.page, 'Completed');
      await screenshot(u.page, `payout-user-completed-list-${size}`, { viewportOnly: true });
      const done = await openDetails(u.page);
      expect(squash(await done.innerText())).toContain('Paid to your wallet');
      expect(await done.getByRole('link', { name: /^0x/ }).getAttribute('href')).toBe(`https://bscscan.com/tx/${sent.tx_hash}`);
      await screenshot(u.page, `payout-user-completed-${size}`);
      expect(u.errors).toEqual([]);
      expect(a.errors).toEqual([]);
      await u.context.close();
      await a.context.close();
    });
  }

  it('the admin queue shows a payout the signer holds over its per-payout limit, with the reason (both sizes)', async () => {
    const id = await withdraw(40);
    expect((await api(server, admin.approveWithdrawal, { params: { id }, token: adminToken })).status).toBe(200);
    expect(await signer.signer.tick()).toMatchObject({ signed: 0, held: 1 });
    const held = await adminRow(id);
    expect(held).toMatchObject({ status: 'approved', payout_note: expect.stringMatching(/^Held by the signer: /) });
    for (const [size, viewport] of SIZES) {
      const a = await newPage(browser, server.url, viewport);
      await signIn(a.page, { ...payee, token: adminToken }, '/admin/withdrawals', true);
      await a.page.getByLabel('Status').selectOption('approved');
      const signerPanel = a.page.getByRole('region', { name: 'Signer' });
      await signerPanel.getByText('(1 held)').waitFor();
      await a.page.getByText(held.payout_note!).waitFor();
      // The limit it is held over, as the signer reported it.
      expect(squash(await signerPanel.innerText())).toContain(`(max $${MAX_PAYOUT_USD}.00 each)`);
      await screenshot(a.page, `payout-admin-held-${size}`);
      expect(a.errors).toEqual([]);
      await a.context.close();
    }
  });
  it("the operator's signer panel lists the sweep of the payee's deposit address to the hot wallet, linked to the explorer (both sizes)", async () => {
    const view = async () => (await api(server, admin.payouts, { token: adminToken })).json.data!;
    // The balances job has read the 1000 on the payee's address: the server offers it to sweep.
    await expect.poll(async () => (await view()).reconciliation.find((r) => r.network === 'bsc')?.on_deposit_addresses, { timeout: 30_000 }).toBe(1000);
    // The address is one of anvil's funded dev accounts (the test mnemonic's): emptied of gas, so the
    // signer must top it up first, as for a real user's address.
    await anvil.rpc('anvil_setBalance', [payeeAddress, '0x0']);
    // A pass per step: the gas top-up from the hot wallet, final; the token transfer, final; reported and recorded.
    for (let pass = 0; pass < 8 && (await view()).sweeps.total === 0; pass++) {
      await signer.sweeper.tick();
      await anvil.mine(CONFIRMATIONS + 1);
    }
    // The signer's next pass reports the hot wallet with the swept token in it.
    await signer.signer.tick();
    const { sweeps, signer: reported } = await view();
    expect(reported!.hot).toMatchObject([{ network: 'bsc', token: 1000 - 19 + 1000 }]);
    expect(sweeps).toMatchObject({ total: 1, items: [{ network: 'bsc', amount: 1000, destination: 'hot', gas_tx: expect.stringMatching(/^0x/) }] });
    const swept = sweeps.items[0]!;
    for (const [size, viewport] of SIZES) {
      const a = await newPage(browser, server.url, viewport);
      await signIn(a.page, { ...payee, token: adminToken }, '/admin/withdrawals', true);
      const item = a.page.getByRole('region', { name: 'Sweeps' }).getByTestId('sweep');
      await item.waitFor();
      expect(squash(await item.innerText())).toContain('BSC $1,000.00 → hot wallet');
      expect(await item.getByRole('link', { name: /^token / }).getAttribute('href')).toBe(`https://bscscan.com/tx/${swept.token_tx}`);
      expect(await item.getByRole('link', { name: /^gas / }).getAttribute('href')).toBe(`https://bscscan.com/tx/${swept.gas_tx}`);
      await screenshot(a.page, `payout-admin-sweeps-${size}`);
      expect(a.errors).toEqual([]);
      await a.context.close();
    }
  });
});
