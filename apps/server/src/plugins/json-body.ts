import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors';
import { jsonDepthOver, MAX_JSON_DEPTH } from './input-guard';

/**
 * JSON bodies through Fastify's own parser (prototype and constructor poisoning still refused), with
 * one difference: an empty body sent with a JSON content type is `{}`. Routes that take no body
 * (logout, 2FA setup) then work for clients that always send the header, and a route that needs
 * fields answers with the message of each missing field instead of 'Invalid JSON body'. A body
 * nested deeper than MAX_JSON_DEPTH is a 400 before it is parsed (the size limit, 64 KB, is a 413):
 * thousands of levels once overflowed the stack after parsing (issue 29, finding 4).
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, {});
    if (jsonDepthOver(text, MAX_JSON_DEPTH)) return done(new AppError('BAD_REQUEST', 'Request body is nested too deeply'), undefined);
    return parse(req, text, done);
  });
  // A request with no body at all (no content type either) on a route that takes one is validated as
  // `{}` too, so it is told which fields are missing. Attached only to such routes: reads pay nothing.
  app.addHook('onRoute', (route) => {
    if (!route.schema?.body) return;
    const fill = async (req: FastifyRequest) => {
      if (req.body === undefined || req.body === null) req.body = {};
    };
    const given = route.preValidation;
    route.preValidation = given === undefined ? [fill] : [fill, ...(Array.isArray(given) ? given : [given])];
  });
}
