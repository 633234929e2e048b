import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply';
import { getWallet } from './service';

const walletRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/user/wallet', { schema: { tags: ['user'] }, onRequest: app.authenticate }, async (req) => ok(await getWallet(app.ctx.db, req.user.id)));
};
export default walletRoutes;
