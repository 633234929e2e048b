import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ZCreateDemoPaymentRequest, ZCreatePaymentRequest, ZPaymentIdRequest, ZSandboxPayRequest } from '@app/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import { bearerToken } from '../../plugins/auth';
import { listCurrencyOptions } from './currencies';
import { disposePayments, paymentsRuntime } from './gateways/registry';
import { handleIpn } from './ipn';
import { toCreatedPayment, toDemoPayment, toPending, toStatusData } from './present';
import { sandboxAmount, sandboxPay } from './sandbox-chain';
import * as payments from './service';

/**
 * Deposits: the first flow (/payments/*), the demo deposit screen (/demo-payments/*), the
 * NOWPayments IPN and, with the sandbox gateway only, the simulated transfer. Thin routes over
 * one service; every payment route answers only for the caller's own payments (404 otherwise).
 */
const paymentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const ctx = app.ctx;
  // Limits per signed-in session (per IP without a token), so users behind one NAT do not share a budget.
  const perSession = (req: FastifyRequest) => {
    const token = bearerToken(req);
    return token ? `pay:${createHash('sha256').update(token).digest('hex').slice(0, 32)}` : `pay-ip:${req.ip}`;
  };
  const createLimit = { rateLimit: { max: ctx.config.rateLimitAuthPerMin, timeWindow: '1 minute', keyGenerator: perSession } };
  const statusLimit = { rateLimit: { max: 60, timeWindow: '1 minute', keyGenerator: perSession } };
  app.addHook('onClose', async () => disposePayments(ctx));

  app.get('/payments/config', { onRequest: app.authenticate, schema: { tags: ['payments'] } }, async () => {
    const gateway = paymentsRuntime(ctx).active.provider;
    return ok({ gateway, sandbox: gateway === 'sandbox' });
  });

  // The first deposit flow (/deposit).
  app.post('/payments/create', { onRequest: app.authenticate, schema: { tags: ['payments'], body: ZCreatePaymentRequest }, config: createLimit }, async (req) =>
    ok(toCreatedPayment(await payments.createPayment(ctx, req.user.id, req.body, 'deposit')), 'Payment created successfully'),
  );
  app.get('/payments/pending', { onRequest: app.authenticate, schema: { tags: ['payments'] } }, async (req) => ok((await payments.listPending(ctx.db, req.user.id)).map(toPending)));
  app.post('/payments/status', { onRequest: app.authenticate, schema: { tags: ['payments'], body: ZPaymentIdRequest }, config: statusLimit }, async (req) =>
    ok(toStatusData(await payments.refreshOwnPayment(ctx, req.user.id, req.body.payment_id)), 'Payment status refreshed!'),
  );
  app.post('/payments/cancel', { onRequest: app.authenticate, schema: { tags: ['payments'], body: ZPaymentIdRequest }, config: statusLimit }, async (req) => {
    await payments.cancelPayment(ctx, req.user.id, req.body.payment_id);
    return ok(undefined, 'Payment cancelled successfully');
  });

  // The demo deposit screen (/demo-deposit).
  app.get('/demo-payments/currencies', { onRequest: app.authenticate, schema: { tags: ['payments'] } }, async () => ok(await listCurrencyOptions(ctx)));
  app.post('/demo-payments/create', { onRequest: app.authenticate, schema: { tags: ['payments'], body: ZCreateDemoPaymentRequest }, config: createLimit }, async (req) =>
    ok(toDemoPayment(await payments.createPayment(ctx, req.user.id, req.body, 'demo')), 'Payment created successfully'),
  );
  app.get('/demo-payments/pending', { onRequest: app.authenticate, schema: { tags: ['payments'] } }, async (req) => ok((await payments.listPending(ctx.db, req.user.id)).map(toPending)));
  app.post('/demo-payments/status', { onRequest: app.authenticate, schema: { tags: ['payments'], body: ZPaymentIdRequest }, config: statusLimit }, async (req) =>
    ok(toStatusData(await payments.refreshOwnPayment(ctx, req.user.id, req.body.payment_id)), 'Payment status refreshed!'),
  );
  app.post('/demo-payments/cancel', { onRequest: app.authenticate, schema: { tags: ['payments'], body: ZPaymentIdRequest }, config: statusLimit }, async (req) => {
    await payments.cancelPayment(ctx, req.user.id, req.body.payment_id);
    return ok(undefined, 'Payment cancelled successfully');
  });

  // NOWPayments IPN: no auth; the signature is over the raw bytes, so this route keeps them.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    scope.post('/payments/ipn', { schema: { tags: ['payments'] }, config: { rateLimit: { max: 600, timeWindow: '1 minute' } } }, async (req) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : undefined;
      const outcome = await handleIpn(ctx, raw, req.headers['x-nowpayments-sig'], req.log);
      return ok({ outcome });
    });
  });

  // The simulated chain exists only with the sandbox gateway.
  if (ctx.config.payments.gateway === 'sandbox') {
    app.post(
      '/sandbox/payments/:payment_id/pay',
      {
        onRequest: app.authenticate,
        schema: { tags: ['payments'], params: z.object({ payment_id: z.string().max(64) }), body: ZSandboxPayRequest },
        config: statusLimit,
      },
      async (req) => ok(toStatusData(await sandboxPay(ctx, req.params.payment_id, sandboxAmount(req.body.amount), req.user.id)), 'Payment sent'),
    );
  }
};
export default paymentsRoutes;
