import type { FastifyPluginAsync } from 'fastify';
import { payments as contract } from '@app/core/contracts';
import { ok } from '../../lib/reply';
import { route } from '../../lib/route';
import { userAddresses } from './addresses';

/** The chain gateway's own routes; none exist with another gateway. */
const custodyRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;
  if (ctx.config.payments.gateway !== 'chain') return;
  route(app, contract.addresses, async (req) => ok(await userAddresses(ctx, req.user.id)));
};
export default custodyRoutes;
