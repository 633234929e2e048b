import { envelopeOf, ZFailure, type Contract, type DataIn, type Parsed } from '@app/core/contracts';
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
  const guard = c.auth === 'user' ? app.authenticate : c.auth === 'admin' ? app.requireAdmin : undefined;
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
        '4xx': ZFailure.describe('Refused: a message per field on 400, else one message'),
        ...c.responses,
      },
    },
    // The request types come from the contract (Parsed<C>), which Fastify cannot infer through this generic helper.
    handler: handler as unknown as RouteHandlerMethod,
  });
}
