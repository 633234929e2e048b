import { envelopeOf, ZFailure, type Contract, type DataIn, type Parsed } from '@app/core/contracts';
import { ERRORS, SERVER_ERROR_CODES } from '@app/core/errors';
import { z } from 'zod';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** the contract the route was registered from (every /api route has one) */
    contract?: Contract;
  }
}

/** The success envelope a handler answers for contract C (`ok(data, message)`). */
export type OkOf<C extends Contract> = { success: true; message?: string; data?: DataIn<C> };
export type ContractHandler<C extends Contract> = (req: FastifyRequest<Parsed<C>>, reply: FastifyReply) => Promise<OkOf<C> | FastifyReply>;

/**
 * Registers the route of a contract: method, path, request and response schemas, the auth hook,
 * the OpenAPI tag and bearer security all come from the contract, so a route cannot disagree with it.
 * Auth runs onRequest, before the body is validated: a caller without rights learns nothing about the payload rules.
 */
export function route<C extends Contract>(app: FastifyInstance, c: C, handler: ContractHandler<C>, options: { config?: FastifyContextConfig } = {}): void {
  const guard = c.auth === 'user' ? app.authenticate : c.auth === 'admin' ? app.requireAdmin : c.auth === 'signer' ? app.requireSigner : undefined;
  app.route({
    method: c.method,
    url: c.path,
    ...(guard ? { onRequest: guard } : {}),
    config: { ...options.config, contract: c },
    schema: {
      tags: [c.tag],
      summary: c.summary,
      ...(c.hidden ? { hide: true } : {}),
      ...(c.auth === 'public' ? {} : { security: [{ bearer: [] }] }),
      ...(c.body ? { body: c.body } : {}),
      ...(c.query ? { querystring: c.query } : {}),
      ...(c.params ? { params: c.params } : {}),
      response: {
        // A file answer (a CSV export) is streamed as it is, never serialized as JSON.
        200: c.produces
          ? { description: `The file (${c.produces}), streamed`, content: { [c.produces]: { schema: z.string() } } }
          : envelopeOf(c.data).describe('Success'),
        '4xx': ZFailure.describe(refusedDescription(c)),
        // Every route may meet an outage or maintenance (503, Retry-After) or a bug (500): declared,
        // so those answers are checked against the contract like every other (issue 47).
        '5xx': ZFailure.describe(`Not now: ${SERVER_ERROR_CODES.join(', ')} (errors table, @app/core/errors)`),
        ...c.responses,
      },
    },
    // The request types come from the contract (Parsed<C>), which Fastify cannot infer through this generic helper.
    handler: handler as unknown as RouteHandlerMethod,
  });
}

/** The OpenAPI text of a route's refusals: the codes its contract lists (with their status), else the general ones. */
function refusedDescription(c: Contract): string {
  const own = c.errors?.length
    ? c.errors.map((code) => `${code} (${ERRORS[code].status})`).join(', ')
    : 'VALIDATION (400, a message per field), BAD_REQUEST (400)';
  return `Refused: ${own}; any route also RATE_LIMITED (429), UNAUTHENTICATED/FORBIDDEN (401/403) where signed in, INVALID_JSON, PAYLOAD_TOO_LARGE`;
}
