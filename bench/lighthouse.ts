/**
 * Lighthouse, mobile preset, on / and /login of the built app served by the real server (issue 12).
 * A figure, not a test: `npm run build && npm run bench:lighthouse`. Uses Debian's Chromium
 * (CHROME_PATH, default /usr/bin/chromium); the scores are recorded in docs/benchmarks.md.
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startServer } from '../e2e/harness';

const PAGES = ['/', '/login'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

const server = await startServer();
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
});
try {
  console.log(`Lighthouse ${'(mobile)'} against ${server.url} on ${process.version}`);
  for (const path of PAGES) {
    const result = await lighthouse(`${server.url}${path}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] });
    if (!result) throw new Error(`no Lighthouse result for ${path}`);
    const { categories, audits } = result.lhr;
    const scores = CATEGORIES.map((c) => `${c} ${Math.round((categories[c]?.score ?? 0) * 100)}`).join(', ');
    console.log(
      `${path.padEnd(7)} ${scores}; FCP ${audits['first-contentful-paint']?.displayValue}, LCP ${audits['largest-contentful-paint']?.displayValue}, TBT ${audits['total-blocking-time']?.displayValue}, CLS ${audits['cumulative-layout-shift']?.displayValue}`,
    );
    // What keeps a category below 100: the failing audits, so they can be fixed.
    for (const c of CATEGORIES) {
      for (const ref of categories[c]?.auditRefs ?? []) {
        const a = audits[ref.id];
        if (ref.weight > 0 && a && a.score !== null && a.score < 0.9) console.log(`   ${c}: ${a.id} (${a.score}) ${a.displayValue ?? ''}`);
      }
    }
  }
} finally {
  chrome.kill();
  await server.stop();
}
