import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Query parameters that carry a credential: their values never reach a log line. */
const SECRET_PARAMS =
  /^(token|code|state|access_id|challenge|challenge_id|otp|id_token|access_token|refresh_token|session_state|totp_code|recovery_code|secret|api_key|apikey)$/i;
/** Any name that speaks of a password (password, new_password, passwd…), whatever surrounds it. */
const PASSWORD_PARAM = /pass(word|wd)/i;

/** A key names a secret when it, or any part of a nested name (`a[token]`, `a.b.token`), does. */
function isSecret(key: string): boolean {
  if (PASSWORD_PARAM.test(key)) return true;
  return key.split(/[[\].]+/).some((part) => SECRET_PARAMS.test(part));
}

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  let changed = false;
  for (const key of [...params.keys()]) {
    if (isSecret(key)) {
      params.set(key, '[redacted]');
      changed = true;
    }
  }
  return changed ? `${url.slice(0, q)}?${params.toString()}` : url;
}

/** pino serializer for requests: method, redacted URL, host, remote address, request id. */
export function serializeRequest(req: FastifyRequest) {
  return { method: req.method, url: redactUrl(req.url), host: req.host, remoteAddress: req.ip, reqId: req.id };
}

/** A read answered faster than this logs at debug; a slower one at info. */
export const SLOW_READ_MS = 500;

/**
 * One line per answered request, when it is answered: the request (redacted, as above), status
 * and time. Fastify's default is two lines (on arrival and on answer); the arrival line doubled
 * the logging cost for no field the answer line lacks. At info, the hot path logs nothing: a read
 * (GET/HEAD) answered below 400 within SLOW_READ_MS logs at debug (LOG_LEVEL=debug shows every
 * request); every write, every 4xx/5xx and every slow read logs at info. Logging each wallet read
 * at info cost 8-12 % of its throughput (docs/benchmarks.md). Fastify's other lines (errors, 404s,
 * shutdown) are unchanged.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const responseTime = reply.elapsedTime;
    if (error) {
      reply.log.error({ req: request, res: reply, err: error, responseTime }, 'request errored');
      return;
    }
    const quietRead = (request.method === 'GET' || request.method === 'HEAD') && reply.statusCode < 400 && responseTime < SLOW_READ_MS;
    // pino makes a disabled level's method a no-op: at info a quiet read costs one object.
    if (quietRead) reply.log.debug({ req: request, res: reply, responseTime }, 'request completed');
    else reply.log.info({ req: request, res: reply, responseTime }, 'request completed');
  }
}
