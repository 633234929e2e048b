import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_EVM_XPUB, TEST_TRON_XPUB } from '../apps/server/src/test/chain/test-keys';
import { startAnvil, type Anvil } from '../apps/server/src/test/chain/anvil';
import { signIn, signUp } from './api-helpers';
import { launchBrowser, newPage, screenshot, SIZES, startServer, type E2EServer } from './harness';
import type { Browser } from 'playwright-core';

const CONFIRMATIONS = 3;
const ADMIN = { email: 'chain-ops@example.test', password: 'Chain-Ops-123' };

/**
 * Issue 33 in the browser: the app on the self-custody gateway (PAYMENTS_GATEWAY=chain) against a
 * real local chain (anvil, a fresh one for this file), a deposit sent on chain to the user's own
 * address, and the operator's view of a network halted by a reorg under the credited line.
 */
describe('self-custody deposits in the browser (chain gateway, anvil)', () => {
  let anvil: Anvil;
  let token: `0x${string}`;
  let server: E2EServer;
  let browser: Browser;
  beforeAll(async () => {
    anvil = await startAnvil();
    token = await anvil.deployToken(18);
    server = await startServer({
      PAYMENTS_GATEWAY: 'chain',
      CUSTODY_EVM_XPUB: TEST_EVM_XPUB,
      CUSTODY_TRON_XPUB: TEST_TRON_XPUB,
      CHAIN_BSC_RPC_URL: anvil.url,
      CHAIN_BSC_USDT: token,
      CHAIN_BSC_DECIMALS: '18',
      CHAIN_BSC_CONFIRMATIONS: String(CONFIRMATIONS),
      CHAIN_POLL_MS: '300',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await anvil?.close();
  });

  for (const [size, viewport] of SIZES) {
    it(`shows the user's own address in full with its QR code, then the deposit's confirmations moving to credited (${size})`, async () => {
      const u = await signUp(server, `Chain Person ${size}`);
      const { page, errors, context } = await newPage(browser, server.url, viewport);
      await signIn(page, u, '/deposit');
      const panel = page.locator('main:not([inert])').getByTestId('permanent-address');
      await panel.waitFor();
      const address = (await panel.getByTestId('full-address').innerText()).trim();
      expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(await panel.locator('svg').count()).toBeGreaterThan(0);
      await screenshot(page, `custody-address-${size}`);

      // The spec's deposit form still opens a payment; on this gateway it points at the same address.
      await page.getByLabel('Chain').selectOption('usdtbsc');
      await page.getByLabel('Amount (USD)').fill('25');
      await page.getByRole('button', { name: 'Deposit', exact: true }).click();
      await page.getByText('Payment created successfully').waitFor();
      await page.getByRole('button', { name: `Copy address ${address}` }).waitFor();

      await anvil.mint(token, address, 25n * 10n ** 18n);
      const confirmations = page.getByTestId('confirmations');
      await confirmations.getByText(`/ ${CONFIRMATIONS}`).waitFor({ timeout: 30_000 });
      expect(await confirmations.innerText()).toMatch(new RegExp(`Confirmations: [0-${CONFIRMATIONS - 1}] / ${CONFIRMATIONS}`));
      await screenshot(page, `custody-confirming-${size}`);
      await anvil.mine(CONFIRMATIONS);
      await confirmations.getByText('Credited').waitFor({ timeout: 30_000 });
      await screenshot(page, `custody-credited-${size}`);

      await page.goto('/dashboard');
      await page.getByTestId('deposit-balance').getByText('$25.00').waitFor();
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('shows the operator a network halted by a reorg under the credited line, with no balance changed (both sizes)', async () => {
    // The deposits above are credited; replacing more blocks than the depth rewrites a credited one.
    await anvil.reorg(CONFIRMATIONS * 3);
    await anvil.mine(1);
    for (const [size, viewport] of SIZES) {
      const { page, errors, context } = await newPage(browser, server.url, viewport);
      await page.goto('/login');
      await page.getByLabel('Email').fill(ADMIN.email);
      await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
      await page.getByRole('button', { name: 'Login' }).click();
      await page.waitForURL('**/admin/dashboard');
      await page.goto('/admin/custody');
      const bsc = page.getByTestId('custody-bsc');
      // The console reads the view when it opens: look again until the watcher has seen the reorg.
      await expect
        .poll(
          async () => {
            if (await bsc.getByText('Halted', { exact: true }).count()) return true;
            await page.reload();
            await bsc.waitFor();
            return false;
          },
          { timeout: 30_000, interval: 1_000 },
        )
        .toBe(true);
      await bsc.getByText(/Crediting stopped/).waitFor();
      await bsc.getByText(/No balance was changed/).waitFor();
      await screenshot(page, `custody-admin-halted-${size}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
