import { user } from '@app/core/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/reply';
import { route } from '../../lib/route';
import { getWallet } from './service';

const walletRoutes: FastifyPluginAsync = async (app) => {
  // The wallet statement checks the session itself, so authentication may use the session cache.
  route(app, user.wallet, async (req) => ok(await getWallet(app.ctx.db, req.user.id, req.tokenHash)), { config: { sessionRechecked: true } });
};
export default walletRoutes;
