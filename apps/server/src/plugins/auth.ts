import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { appErrorFor } from '../lib/db-errors';
import { AppError } from '../lib/errors';
import { isSignerToken } from '../modules/payouts/service';
import { findSessionUser, findSessionUserCached, hashToken, sessionCheck, type SessionUser } from '../modules/auth/sessions';

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser;
    token: string;
    /** the keyed hash of the bearer token, set on routes whose statement checks the session again */
    tokenHash: string;
    /** authenticated from the session cache: an error answer re-reads the session first (plugins/error-handler.ts) */
    sessionFromCache: boolean;
  }
  interface FastifyInstance {
    /** preHandler: a valid bearer token of a user who is not blocked, else 401/403. */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** preHandler: authenticate, then require is_admin, else 403. */
    requireAdmin: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** onRequest: the signer's own bearer token (its hash is SIGNER_TOKEN_HASH), else 401; no session token is one. */
    requireSigner: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyContextConfig {
    /**
     * The route's data statement reads the session row and the user's status itself
     * (`sessionCheck` in modules/auth/sessions.ts): authentication may then answer from the per-process session cache,
     * and the one statement both checks the session and reads the data (one round trip).
     */
    sessionRechecked?: boolean;
    /**
     * A GET whose one statement finds the session from the token hash, checks it and reads the
     * data: authentication only checks the header's shape and hashes the token; `request.user` is
     * not set. (A route with a body keeps `sessionRechecked`: a caller without a live session must
     * get 401 before any payload rule is checked.)
     */
    sessionInStatement?: boolean;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  return m?.[1];
}

export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('user', null as unknown as SessionUser);
  app.decorateRequest('token', '');
  app.decorateRequest('tokenHash', '');
  app.decorateRequest('sessionFromCache', false);

  const authenticate = async (request: FastifyRequest): Promise<void> => {
    const token = bearerToken(request);
    if (!token || token.length > 200) throw appErrorFor('US001');
    let user: SessionUser | undefined;
    const config = request.routeOptions.config;
    if (config?.sessionInStatement) {
      request.tokenHash = hashToken(app.ctx.secret, token);
      request.token = token;
      return;
    }
    if (config?.sessionRechecked) {
      request.tokenHash = hashToken(app.ctx.secret, token);
      const found = await findSessionUserCached(app.ctx.db, request.tokenHash);
      user = found.user;
      request.sessionFromCache = found.cached;
    } else {
      user = await findSessionUser(app.ctx.db, app.ctx.secret, token);
    }
    if (!user) throw appErrorFor('US001');
    sessionCheck(user.status);
    request.user = user;
    request.token = token;
  };
  app.decorate('authenticate', authenticate);
  app.decorate('requireAdmin', async (request: FastifyRequest) => {
    await authenticate(request);
    if (!request.user.is_admin) throw new AppError('FORBIDDEN', 'Admin access required');
  });
  app.decorate('requireSigner', async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token || token.length > 200 || !isSignerToken(app.ctx, token)) throw new AppError('UNAUTHENTICATED', 'Signer token required');
  });
});
