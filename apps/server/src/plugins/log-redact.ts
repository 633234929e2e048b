import type { FastifyRequest } from 'fastify';

/** Query parameters that carry a credential: their values never reach a log line. */
const SECRET_PARAMS = /^(token|code|state|access_id|challenge|challenge_id|otp|id_token|access_token|refresh_token|session_state)$/i;

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  let changed = false;
  for (const key of [...params.keys()]) {
    if (SECRET_PARAMS.test(key)) {
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
