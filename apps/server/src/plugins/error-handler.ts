import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERRORS } from '@app/core/errors';
import { classifyDbError, UNAVAILABLE_MESSAGE } from '../lib/db-errors';
import { AppError, failureBody, sendAppError, sendFailure, type ErrorCode } from '../lib/errors';
import { recheckCachedSession } from '../modules/auth/sessions';
import { failuresOf } from '../modules/health/failures';

/**
 * One place shapes every failure as { success:false, code, message, errors? } (server design, section 2;
 * the codes, their statuses and Retry-After: the one table, @app/core/errors).
 * Validation → 400 with a message per field (the spec's texts come from the shared schemas);
 * the database out of reach, a full disk, a dropped database or a revoked role (lib/db-errors.ts)
 * → 503 with Retry-After (the request can be retried once it is back), recorded for health and metrics;
 * anything unexpected → 500 'Internal server error' with no detail.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(async (error: FastifyError | AppError | Error, request, reply) => {
    // Let in from the session cache, and refused by something other than the session check:
    // the session is confirmed first, so a token revoked elsewhere gets 401/403, not the payload rules.
    if (request.sessionFromCache && !(error instanceof AppError && (error.status === 401 || error.status === 403))) {
      request.sessionFromCache = false;
      try {
        await recheckCachedSession(app.ctx.db, request.tokenHash);
      } catch (err) {
        return answer(err as Error, request, reply);
      }
    }
    return answer(error, request, reply);
  });

  function answer(error: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
    if (error instanceof AppError) return sendAppError(reply, error);
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: Record<string, string> = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || '_';
        if (!(field in errors)) errors[field] = issue.message ?? 'Invalid value';
      }
      const fieldKeys = Object.keys(errors).filter((k) => k !== '_');
      // No field to name: the body (or query) as a whole is of the wrong kind, e.g. a JSON array.
      const whole = error.validationContext === 'body' ? 'Request body must be a JSON object' : 'Invalid request';
      const first = fieldKeys.length ? errors[fieldKeys[0]!]! : whole;
      if (!fieldKeys.length) delete errors._;
      return sendFailure(reply, 'VALIDATION', { message: first, ...(fieldKeys.length ? { errors } : {}) });
    }
    const fe = error as FastifyError;
    if (fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error instanceof SyntaxError) {
      return sendFailure(reply, 'INVALID_JSON');
    }
    if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return sendFailure(reply, 'UNSUPPORTED_MEDIA_TYPE');
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendFailure(reply, 'PAYLOAD_TOO_LARGE');
    const status = fe.statusCode ?? 500;
    // A route's rate limit (@fastify/rate-limit) has set Retry-After itself.
    if (status === 429) return sendFailure(reply, 'RATE_LIMITED');
    if (status >= 400 && status < 500) return sendFailure(reply, status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST', { message: fe.message || 'Bad request' });
    const unavailable = classifyDbError(error);
    if (unavailable) {
      failuresOf(app.ctx).record(unavailable);
      request.log.warn({ err: error, reason: unavailable.reason }, 'database unavailable');
      // One code for every reason (the reason goes to the log, the metrics and health).
      return sendFailure(reply, 'UNAVAILABLE', { message: UNAVAILABLE_MESSAGE, retryAfterSeconds: unavailable.retryAfterSeconds });
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendFailure(reply, 'INTERNAL');
  }
}

/**
 * A request Node's HTTP parser cannot read (bad framing, a body on a request line it cannot frame,
 * headers too large, a timeout) never reaches a route: Fastify answers it from the socket with its
 * own `{error, message, statusCode}`. This answers it in the API's shape instead.
 */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const code: ErrorCode =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'REQUEST_TIMEOUT' : err.code === 'HPE_HEADER_OVERFLOW' ? 'HEADERS_TOO_LARGE' : 'MALFORMED_REQUEST';
  const status = ERRORS[code].status;
  const body = JSON.stringify(failureBody(code));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
