import { contractPath, type Contract } from '@app/core/contracts/define';
import type { FastifyInstance } from 'fastify';
import { auth } from './factories';

/**
 * Sends `payload` to a contract's endpoint as the raw text of a JSON body, signed in with `token`:
 * for the bodies `inject` cannot send because no JSON value serialises to them (broken JSON), or
 * that the body parser must refuse before the contract sees them.
 */
export function sendRawJson(app: FastifyInstance, c: Contract, token: string, payload: string) {
  return app.inject({ method: c.method, url: contractPath(c), headers: { ...auth(token), 'content-type': 'application/json' }, payload });
}
