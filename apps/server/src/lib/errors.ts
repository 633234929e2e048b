import { ERRORS, type ErrorCode, type ErrorSpec } from '@app/core/errors';
import type { FastifyReply } from 'fastify';

export type { ErrorCode };

/**
 * Typed application errors: services throw these; one handler turns them into HTTP answers. The
 * code's status, default message, Retry-After and field come from the one table in core
 * (`@app/core/errors`, issue 47).
 */
export class AppError extends Error {
  readonly status: number;
  readonly errors?: Record<string, string>;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    errors?: Record<string, string>,
    /** seconds for Retry-After, where the code carries one (else the table's default) */
    readonly retryAfterSeconds?: number,
  ) {
    const spec: ErrorSpec = ERRORS[code];
    const text = message ?? spec.message ?? code;
    super(text);
    this.status = spec.status;
    // A code that always belongs to one field names it, unless the thrower named the field itself.
    this.errors = errors ?? (spec.field ? { [spec.field]: text } : undefined);
  }
}

/** A 400 that names the field, so the browser can show the message under it. */
export function fieldError(field: string, message: string, code: ErrorCode = 'VALIDATION'): AppError {
  return new AppError(code, message, { [field]: message });
}

/** Seconds a Retry-After says when the thrower gave none. */
const DEFAULT_RETRY_AFTER_S = 5;

/** The failure body of a code: `{success:false, code, message, errors?}` (ZFailure). */
export function failureBody(code: ErrorCode, message?: string, errors?: Record<string, string>) {
  const spec: ErrorSpec = ERRORS[code];
  return { success: false as const, code, message: message ?? spec.message ?? code, ...(errors && Object.keys(errors).length ? { errors } : {}) };
}

/** Sends a failure of this code: its status, Retry-After where the code carries one, and the body. */
export function sendFailure(
  reply: FastifyReply,
  code: ErrorCode,
  opts: { message?: string; errors?: Record<string, string>; retryAfterSeconds?: number; data?: unknown } = {},
): FastifyReply {
  const spec: ErrorSpec = ERRORS[code];
  // Retry-After where the code carries one: the thrower's seconds, else (an outage, maintenance)
  // the default; a rate limit's store has usually set it already.
  if (spec.retryAfter && !reply.hasHeader('retry-after') && (opts.retryAfterSeconds !== undefined || spec.status >= 500))
    void reply.header('retry-after', String(opts.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_S));
  const body = failureBody(code, opts.message, opts.errors);
  return reply.status(spec.status).send(opts.data === undefined ? body : { ...body, data: opts.data });
}

/** The same answer as an AppError's (for hooks that answer without throwing). */
export const sendAppError = (reply: FastifyReply, e: AppError): FastifyReply =>
  sendFailure(reply, e.code, {
    message: e.message,
    ...(e.errors ? { errors: e.errors } : {}),
    ...(e.retryAfterSeconds ? { retryAfterSeconds: e.retryAfterSeconds } : {}),
  });
