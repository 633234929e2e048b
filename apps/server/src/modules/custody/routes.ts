import type { FastifyPluginAsync } from 'fastify';
import { payments as contract } from '@app/core/contracts';
import { AppError } from '../../lib/errors';
import { ok } from '../../lib/reply';
import { route } from '../../lib/route';
import { userAddresses } from './addresses';
import { stopCustody } from './runtime';

/**
 * The chain gateway's own routes. Every contract is served whatever the gateway (one route table,
 * documented once); with another gateway there are no permanent addresses: 404, as the sandbox's
 * own routes answer under NOWPayments.
 */
const custodyRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;
  // The server closes the app before it stops the scheduler, which waits for the watchers' ticks:
  // their node calls end here, whatever the node does (CHAIN_RPC_TIMEOUT_MS bounds them otherwise).
  app.addHook('onClose', async () => stopCustody(ctx));
  route(app, contract.addresses, async (req) => {
    if (ctx.config.payments.gateway !== 'chain') throw new AppError('NOT_FOUND', 'Not found');
    return ok(await userAddresses(ctx, req.user.id));
  });
};
export default custodyRoutes;
