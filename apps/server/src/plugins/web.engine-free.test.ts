import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
    }
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

  it("sends the pre-rendered login.html for exactly '/login', brotli when accepted, never cached long", async () => {
    const dir = dist({ 'index.html': 'landing', 'app.html': 'shell', 'login.html': 'login form', 'login.html.br': 'brotli login form' });
    expect((await get(dir, '/login')).body).toBe('login form');
    expect((await get(dir, '/login?x=1')).body).toBe('login form');
    for (const url of ['/login/', '/loginx', '/signup']) expect((await get(dir, url)).body, url).toBe('shell');
    const app = Fastify();
    await registerWeb(app, dir);
    const res = await app.inject({ method: 'GET', url: '/login', headers: { 'accept-encoding': 'br, gzip' } });
    await app.close();
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.body).toBe('brotli login form');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });

  it("sends the pre-rendered signup.html for a bare '/signup' only: with a query (an invite's ref, a social return) the app renders it afresh", async () => {
    const dir = dist({ 'index.html': 'landing', 'app.html': 'shell', 'login.html': 'login form', 'signup.html': 'signup form' });
    expect((await get(dir, '/signup')).body).toBe('signup form');
    for (const url of ['/signup?ref=AB12CD34E', '/signup?token=t&provider=google', '/signup/', '/signupx']) {
      expect((await get(dir, url)).body, url).toBe('shell');
    }
  });

  it('sends a signed-in page its own pre-rendered shell (dashboard.html for /dashboard), and app.html where the build made none', async () => {
    const dir = dist({
      'index.html': 'landing',
      'app.html': 'splash',
      'login.html': 'login form',
      'dashboard.html': 'dashboard shell',
      'staking/history.html': 'staking history shell',
    });
    expect((await get(dir, '/dashboard')).body).toBe('dashboard shell');
    expect((await get(dir, '/dashboard?tab=1')).body).toBe('dashboard shell');
    expect((await get(dir, '/staking/history')).body).toBe('staking history shell');
    for (const url of ['/dashboard/', '/dashboard.html/x', '/wallet', '/signup', '/admin/dashboard', '/app', '/index']) {
      expect((await get(dir, url)).body, url).toBe('splash');
    }
    expect((await get(dir, '/')).body).toBe('landing');
    expect((await get(dir, '/login')).body).toBe('login form');
  });

  it('caches hashed assets for a year and every other file not at all', async () => {
    const dir = dist({ 'index.html': 'landing', 'app.html': 'shell', 'sw.js': 'sw' });
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'js');
    expect((await get(dir, '/assets/index-abc123.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/', '/dashboard', '/sw.js']) expect((await get(dir, url)).headers['cache-control'], url).toBe('no-cache');
  });

  it('falls back to index.html everywhere for a build without app.html', async () => {
    const dir = dist({ 'index.html': 'spa' });
    expect((await get(dir, '/login')).body).toBe('spa');
  });
});
