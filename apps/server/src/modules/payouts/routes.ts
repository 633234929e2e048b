import type { FastifyPluginAsync } from 'fastify';
import { signer } from '@app/core/contracts';
import { ok } from '../../lib/reply';
import { route } from '../../lib/route';
import { applySignerReport, recordSignerContact, signerQueue } from './service';
import { recordSweep, sweepCandidates } from './sweeps';

/**
 * The signer's internal routes (custody.md section 6): its own bearer token only (route() puts the
 * `requireSigner` hook on them), hidden from the public OpenAPI document. Every call counts as the
 * signer's contact.
 */
const payoutRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;
  route(app, signer.payouts, async () => ok({ payouts: await signerQueue(ctx) }));
  route(app, signer.report, async (req) => ok(await applySignerReport(ctx, req.log, BigInt(req.params.id), req.body)));
  route(app, signer.sweeps, async () => ok({ sweeps: await sweepCandidates(ctx) }));
  route(app, signer.sweepReport, async (req) => ok(await recordSweep(ctx, req.log, req.body)));
  route(app, signer.heartbeat, async (req) => {
    await recordSignerContact(ctx.db, req.body);
    return ok(undefined);
  });
};
export default payoutRoutes;
