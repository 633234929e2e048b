import type { Page } from 'playwright-core';

// The money forms filled as a person fills them, for the specs that only need to get past them.

/** On /demo-deposit: picks the chain (its option's text, e.g. 'BSC'), types the amount if given, and presses Deposit. */
export async function startDemoPayment(page: Page, chain: string, amount?: string): Promise<void> {
  await page.getByRole('button', { name: 'Select Chain' }).click();
  await page.getByRole('option').filter({ hasText: chain }).click();
  if (amount !== undefined) await page.getByLabel('Enter Amount').fill(amount);
  await page.getByRole('button', { name: 'Deposit', exact: true }).click();
}

/** Pays the open demo payment this amount through the page's sandbox control. */
export async function simulatePayment(page: Page, amount: string): Promise<void> {
  await page.getByLabel('Amount to simulate').fill(amount);
  await page.getByRole('button', { name: 'Simulate payment' }).click();
}

/** On /transfer: names the receiver, waits until the app has found them, types the amount and presses Transfer. */
export async function fillTransferForm(page: Page, receiver: string, amount: string): Promise<void> {
  await page.getByLabel('User name').fill(receiver);
  await page.getByText(`Receiver found: ${receiver}`).waitFor();
  await page.getByLabel('Amount').fill(amount);
  await page.getByRole('button', { name: 'Transfer', exact: true }).click();
}
