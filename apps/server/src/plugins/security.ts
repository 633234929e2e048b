import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { isApiPath, routedPath } from '../lib/api-path';

/** helmet's options; `scriptHashes` ('sha256-…') allow the pages' own inline scripts (web.ts). */
const optionsWith = (scriptHashes: readonly string[]): Parameters<typeof helmet>[0] => ({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...scriptHashes],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  crossOriginEmbedderPolicy: false,
});

/**
 * The headers helmet sets for these options, computed once. Every directive is a constant (no
 * nonces), so each response gets the same set; @fastify/helmet rebuilt helmet's middleware (and
 * re-parsed the policy) on every request, ~6 % of a read's CPU in the profile (docs/benchmarks.md).
 */
export function securityHeaders(scriptHashes: readonly string[] = []): Record<string, string> {
  const headers: Record<string, string> = {};
  const capture = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: () => undefined,
  } as unknown as ServerResponse;
  helmet(optionsWith(scriptHashes))({} as never, capture, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

/**
 * Security headers. Pages (and the API docs' pages) get helmet's set with a strict CSP the built
 * app passes: scripts only from this origin, no inline scripts; inline styles stay allowed because
 * the toast library injects a <style> tag. JSON answers get API_HEADERS. The request id travels
 * back in the same hook (one synchronous hook per request, no promise).
 */
export async function registerSecurity(app: FastifyInstance): Promise<void> {
  const documentHeaders = securityHeaders();
  app.addHook('onRequest', (request, reply, done) => {
    // By the path as the router reads it, so `/%61pi/…` and unmatched /api paths get the API set
    // (no-store above all); the fast case, a plain /api/ URL, needs no decoding.
    const url = request.url;
    const path = url.startsWith('/api/') ? url : routedPath(url);
    reply.headers(isApiPath(path) && !path.startsWith('/api/docs') ? API_HEADERS : documentHeaders);
    reply.header('x-request-id', request.id);
    done();
  });
}

/**
 * A JSON answer is never a page: no script, style or frame policy applies to it, so the API sends
 * the short set OWASP's REST cheat sheet lists instead of the document set (a policy that loads
 * nothing, no framing, no sniffing, HTTPS only, and no copy of a balance kept by any cache). Half
 * the bytes of every API answer's headers were the document set.
 */
export const API_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
});
