import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

const options: Parameters<typeof helmet>[0] = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
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
};

/**
 * The headers helmet sets for these options, computed once. Every directive is a constant (no
 * nonces), so each response gets the same set; @fastify/helmet rebuilt helmet's middleware (and
 * re-parsed the policy) on every request, ~6 % of a read's CPU in the profile (docs/benchmarks.md).
 */
export function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const capture = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: () => undefined,
  } as unknown as ServerResponse;
  helmet(options)({} as never, capture, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

/**
 * Security headers with a strict CSP the built app passes: scripts only from this origin, no
 * inline scripts. Inline styles stay allowed because the toast library injects a <style> tag.
 * The request id travels back in the same hook (one synchronous hook per request, no promise).
 */
export async function registerSecurity(app: FastifyInstance): Promise<void> {
  const headers = securityHeaders();
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    reply.header('x-request-id', request.id);
    done();
  });
}
