import { defineConfig } from 'vitest/config';

/** Browser tests: the built app on a real server, driven in Debian's Chromium. One file at a time (2 cores). */
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['e2e/**/*.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    globalSetup: ['e2e/global-setup.ts'],
  },
});
