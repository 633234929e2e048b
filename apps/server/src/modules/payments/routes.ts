import { createHash } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { demoPayments, payments as contract } from '@app/core/contracts';
import { ok } from '../../lib/reply';
import { route } from '../../lib/route';
import { bearerToken } from '../../plugins/auth';
import { listCurrencyOptions } from './currencies';
import { disposePayments, paymentsRuntime } from './gateways/registry';
import { handleIpn } from './ipn';
import { toCreatedPayment, toDemoPayment, toPending, toStatusData } from './present';
import { LATE_DEPOSIT_MESSAGE, sandboxAmount, sandboxPay } from './sandbox-chain';
import * as payments from './service';

/**
 * Deposits: the first flow (/payments/*), the demo deposit screen (/demo-payments/*), the
 * NOWPayments IPN and, with the sandbox gateway only, the simulated transfer. Thin routes over
 * one service; every payment route answers only for the caller's own payments (404 otherwise).
 */
const paymentsRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;
  // Limits per signed-in session (per IP without a token), so users behind one NAT do not share a budget.
  const perSession = (req: FastifyRequest) => {
    const token = bearerToken(req);
    return token ? `pay:${createHash('sha256').update(token).digest('hex').slice(0, 32)}` : `pay-ip:${req.ip}`;
  };
  const createLimit = { config: { rateLimit: { max: ctx.config.rateLimitAuthPerMin, timeWindow: '1 minute', keyGenerator: perSession } } };
  const statusLimit = { config: { rateLimit: { max: 60, timeWindow: '1 minute', keyGenerator: perSession } } };
  app.addHook('onClose', async () => disposePayments(ctx));

  route(app, contract.config, async () => {
    const gateway = paymentsRuntime(ctx).active.provider;
    return ok({ gateway, sandbox: gateway === 'sandbox' });
  });

  // The first deposit flow (/deposit) and the demo deposit screen (/demo-deposit) differ in how they create a payment ...
  route(
    app,
    contract.create,
    async (req) => ok(toCreatedPayment(await payments.createPayment(ctx, req.user.id, req.body, 'deposit')), 'Payment created successfully'),
    createLimit,
  );
  route(app, demoPayments.currencies, async () => ok(await listCurrencyOptions(ctx)));
  route(
    app,
    demoPayments.create,
    async (req) => ok(toDemoPayment(await payments.createPayment(ctx, req.user.id, req.body, 'demo')), 'Payment created successfully'),
    createLimit,
  );

  // ... and share the rest: one definition registered under both prefixes.
  for (const calls of [contract, demoPayments]) {
    route(app, calls.pending, async (req) => ok((await payments.listPending(ctx.db, req.user.id)).map(toPending)));
    route(
      app,
      calls.status,
      async (req) => ok(toStatusData(await payments.refreshOwnPayment(ctx, req.user.id, req.body.payment_id)), 'Payment status refreshed!'),
      statusLimit,
    );
    route(
      app,
      calls.cancel,
      async (req) => {
        await payments.cancelPayment(ctx, req.user.id, req.body.payment_id);
        return ok(undefined, 'Payment cancelled successfully');
      },
      statusLimit,
    );
  }

  // NOWPayments IPN: no auth; the signature is over the raw bytes, so this route keeps them.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    route(
      scope,
      contract.ipn,
      async (req) => {
        const raw = Buffer.isBuffer(req.body) ? req.body : undefined;
        const outcome = await handleIpn(ctx, raw, req.headers['x-nowpayments-sig'], req.log);
        return ok({ outcome });
      },
      { config: { rateLimit: { max: 600, timeWindow: '1 minute' } } },
    );
  });

  // The simulated chain exists only with the sandbox gateway.
  if (ctx.config.payments.gateway === 'sandbox') {
    route(
      app,
      contract.sandboxPay,
      async (req) => {
        const { row, late } = await sandboxPay(ctx, req.params.payment_id, sandboxAmount(req.body.amount), req.user.id);
        return ok(toStatusData(row), late ? LATE_DEPOSIT_MESSAGE : 'Payment sent');
      },
      statusLimit,
    );
  }
};
export default paymentsRoutes;
