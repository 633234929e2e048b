import type { Page } from 'playwright-core';

/**
 * Records every toast the page shows (sonner's `li[data-sonner-toast]`), each element once with its
 * latest text, so a test can say "never toasted as confirmed" or "toasted exactly once".
 */
export async function recordToasts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __toasts: Map<Element, string> };
    w.__toasts = new Map();
    const scan = () => document.querySelectorAll('[data-sonner-toast]').forEach((el) => w.__toasts.set(el, el.textContent ?? ''));
    new MutationObserver(scan).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

/** The texts of the toasts recordToasts has seen on the page so far. */
export const toastsSeen = (page: Page) => page.evaluate(() => [...(window as unknown as { __toasts: Map<Element, string> }).__toasts.values()]);
