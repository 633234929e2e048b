import { user } from '@app/core/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/reply';
import { route } from '../../lib/route';
import { getWallet } from './service';

const walletRoutes: FastifyPluginAsync = async (app) => {
  // The wallet statement finds and checks the session itself: authentication reads nothing first.
  route(app, user.wallet, async (req) => ok(await getWallet(app.ctx.db, req.tokenHash)), { config: { sessionInStatement: true } });
};
export default walletRoutes;
