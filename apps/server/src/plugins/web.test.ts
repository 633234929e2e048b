import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { registerWeb } from './web';

describe('the web app fallback', () => {
  const dirs: string[] = [];
  const dist = (files: Record<string, string>) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
    dirs.push(dir);
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    return dir;
  };
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const get = async (dir: string, url: string) => {
    const app = Fastify();
    await registerWeb(app, dir);
    const res = await app.inject({ method: 'GET', url });
    await app.close();
    return res;
  };

  it("sends the pre-rendered index.html for '/' only and the app.html shell for every other path", async () => {
    const dir = dist({ 'index.html': 'landing', 'app.html': 'shell' });
    expect((await get(dir, '/')).body).toBe('landing');
    expect((await get(dir, '/?ref=x')).body).toBe('landing');
    for (const url of ['/login', '/dashboard', '/staking/history']) {
      const res = await get(dir, url);
      expect(res.body, url).toBe('shell');
    }
    expect((await get(dir, '/api/nope')).statusCode).toBe(404);
  });

  it('falls back to index.html everywhere for a build without app.html', async () => {
    const dir = dist({ 'index.html': 'spa' });
    expect((await get(dir, '/login')).body).toBe('spa');
  });
});
