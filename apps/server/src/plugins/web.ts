import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { isApiPath, routedPath } from '../lib/api-path';
import { sendFailure } from '../lib/errors';
import { securityHeaders } from './security';

/**
 * The pages the build pre-rendered for one path each: login.html for /login, dashboard.html for
 * /dashboard, staking/history.html for /staking/history (apps/web/build/prerender-pages.ts). Not
 * index.html (sent for '/') nor app.html (the page for every other path), nor anything under assets/.
 */
function pagesByPath(webDist: string): Map<string, string> {
  const pages = new Map<string, string>();
  for (const entry of readdirSync(webDist, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const file = path.relative(webDist, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (file === 'index.html' || file === 'app.html' || file.startsWith('assets/')) continue;
    pages.set(`/${file.slice(0, -'.html'.length)}`, file);
  }
  return pages;
}

/** Pre-rendered pages whose content depends on their query: sent pre-rendered only without one. */
const QUERY_READERS = new Set(['/signup']);

/**
 * The CSP hashes ('sha256-…') of the inline scripts in the built pages: login.html's and
 * signup.html's early scripts (apps/web/src/features/auth/early-login.ts, early-signup.ts) make the
 * form work before the app's code arrives, and on a slow network a file of its own would cost a
 * round trip more. Only what the build wrote is allowed, by its exact text; every other inline
 * script stays refused.
 */
export function inlineScriptHashes(webDist: string): string[] {
  const hashes = new Set<string>();
  for (const entry of readdirSync(webDist, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const html = readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
    for (const [, attrs = '', text = ''] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
      if (/\bsrc\s*=/.test(attrs) || text === '') continue;
      hashes.add(`'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`);
    }
  }
  return [...hashes].sort();
}

/**
 * Serves the built React app and falls back to a page for every non-API path, so deep links
 * like /dashboard load the SPA. Unknown /api paths answer a JSON 404. Hashed assets are cached for a
 * year; robots.txt and sitemap.xml come from apps/web/public.
 */
export async function registerWeb(app: FastifyInstance, webDist: string): Promise<void> {
  const hasApp = existsSync(path.join(webDist, 'index.html'));
  const hasShell = existsSync(path.join(webDist, 'app.html'));
  const pages = hasApp ? pagesByPath(webDist) : new Map<string, string>();
  // The pages' policy, with their inline scripts allowed (security.ts sets the policy without them
  // for every document; the API's answers keep their own).
  const scriptHashes = hasApp ? inlineScriptHashes(webDist) : [];
  const pagePolicy = scriptHashes.length ? securityHeaders(scriptHashes)['content-security-policy'] : undefined;
  if (hasApp) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each text asset (vite-plugin-compression2): sent as-is
      // to a browser that accepts them, so no CPU is spent compressing per request.
      preCompressed: true,
      // Our own Cache-Control (below) rather than @fastify/static's 'public, max-age=0'.
      cacheControl: false,
      setHeaders: (res, file) => {
        // Vite's hashed assets never change; everything else (the HTML pages, sw.js, the manifest,
        // robots.txt) keeps its name across builds, so the browser asks again every time (an ETag
        // makes that a 304).
        res.header('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
        // The service worker caches the pages by their file names (/login.html): the same policy.
        if (pagePolicy && file.endsWith('.html')) res.header('content-security-policy', pagePolicy);
      },
    });
    // @fastify/static with wildcard:false registers each file at start; assets added later are not served.
  }
  app.setNotFoundHandler((request, reply) => {
    const url = routedPath(request.url);
    if (isApiPath(url) || (request.method !== 'GET' && request.method !== 'HEAD') || !hasApp) {
      return sendFailure(reply, 'NOT_FOUND');
    }
    reply.header('cache-control', 'no-cache');
    if (pagePolicy) reply.header('content-security-policy', pagePolicy);
    // index.html carries the landing page, login.html and signup.html their forms and each
    // signed-in page its shell, pre-rendered by the build; every other path gets app.html, the same
    // page with a splash. /signup with a query is the app's to render afresh (an invite's ref locks
    // the referral field, a social sign-in returns there), not the build's guest form.
    const page = QUERY_READERS.has(url) && request.url.includes('?') ? undefined : pages.get(url);
    const file = url === '/' || !hasShell ? 'index.html' : (page ?? 'app.html');
    return reply.type('text/html').sendFile(file);
  });
}
