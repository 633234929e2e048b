import { user } from '@app/core/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/reply';
import { route } from '../../lib/route';
import { getWallet } from './service';

const walletRoutes: FastifyPluginAsync = async (app) => {
  route(app, user.wallet, async (req) => ok(await getWallet(app.ctx.db, req.user.id)));
};
export default walletRoutes;
