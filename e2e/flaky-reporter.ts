import type { Reporter, TestCase } from 'vitest/node';

/**
 * Names every browser test that failed and then passed on its retry (e2e/vitest.config.ts
 * `retry`), at the end of the run: a retry keeps one slow moment on a saturated CI machine from
 * failing the build, and this list keeps the flake visible instead of hiding it.
 */
export default class FlakyReporter implements Reporter {
  private readonly flaky: string[] = [];

  onTestCaseResult(test: TestCase): void {
    const d = test.diagnostic();
    if (!d?.flaky) return;
    // The failed attempt's error, when vitest kept it: what to look at first.
    const first = test.result().errors?.[0]?.message?.split('\n')[0];
    this.flaky.push(`${test.module.relativeModuleId} > ${test.fullName} (passed on retry ${d.retryCount})${first ? `\n      first failure: ${first}` : ''}`);
  }

  onTestRunEnd(): void {
    if (!this.flaky.length) return;
    console.log(`\nFLAKY: ${this.flaky.length} browser test(s) failed first and passed on retry:\n${this.flaky.map((f) => `  ${f}`).join('\n')}\n`);
  }
}
