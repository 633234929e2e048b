import { ZCreateWithdrawalRequest } from '@app/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply';
import { requireSecondFactor } from '../auth/two-factor';
import { createWithdrawal } from './service';

const withdrawalsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/withdraw/create', { schema: { tags: ['withdrawals'], body: ZCreateWithdrawalRequest }, onRequest: app.authenticate }, async (req) => {
    await requireSecondFactor(app.ctx, req.user.id, req.body.totp_code);
    const r = await createWithdrawal(app.ctx.db, req.user.id, req.body);
    return ok({ id: String(r.id) }, 'Withdrawal request created successfully!');
  });
};
export default withdrawalsRoutes;
