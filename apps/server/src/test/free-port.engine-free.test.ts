import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from './processes';
import { repoRoot, sourceFiles } from './source-files';

/**
 * A port for a process a test starts comes from one place (test/processes.ts), below the kernel's
 * ephemeral range: a port from `listen(0)` let go and bound again by a child could be taken in
 * between by any outgoing connection (CI: a server's start-up failed with EADDRINUSE).
 */
describe('free ports for test processes', () => {
  it('are drawn below the ephemeral range and can be listened on', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(32_768);
    }
    const s = createServer();
    await new Promise<void>((resolve, reject) => s.once('error', reject).listen(ports[0], '127.0.0.1', resolve));
    await new Promise((r) => s.close(r));
  });

  it('is defined once: no second copy of freePort', () => {
    const copies = ['e2e', 'bench', 'scripts', 'apps']
      .flatMap((dir) => sourceFiles(path.join(repoRoot, dir)))
      .filter((file) => /function freePort\(/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(repoRoot, file).split(path.sep).join('/'));
    expect(copies).toEqual(['apps/server/src/test/processes.ts']);
  });
});
