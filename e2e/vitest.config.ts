import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Browser tests: the built app on a real server, driven in Debian's Chromium. Each file starts its
 * own server (a copy of the migrated template, a free port, its own mailbox) and its own browser,
 * so files run side by side: a browser file spends about two thirds of its time waiting (gateway
 * steps, polling, animations), one at a time left a 2-core machine 70 % idle.
 */
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['e2e/**/*.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    maxWorkers: Number(process.env.E2E_WORKERS ?? os.availableParallelism() + 1),
    globalSetup: ['e2e/global-setup.ts'],
  },
});
