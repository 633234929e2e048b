import { microToNumber, type TWallet } from '@app/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply';
import * as ledger from '../ledger/service';
import { getTeamSummary } from '../team/service';

const walletRoutes: FastifyPluginAsyncZod = async (app) => {
  /** Balances and totals from the cached balances and counters: never recomputed from history. */
  app.get('/user/wallet', { schema: { tags: ['user'] }, onRequest: app.authenticate }, async (req) => {
    const [balances, totals, team] = await Promise.all([ledger.getBalances(app.ctx.db, req.user.id), ledger.getTotals(app.ctx.db, req.user.id), getTeamSummary(app.ctx.db, req.user.id)]);
    const wallet: TWallet = {
      user_id: String(req.user.id),
      balance: microToNumber(balances.income),
      deposit_balance: microToNumber(balances.deposit),
      total_staked: microToNumber(totals.total_staked),
      total_income: microToNumber(totals.roi_income + totals.referral_income + totals.reward_income),
      total_withdraw: microToNumber(totals.total_withdrawn),
      total_directs: team.total_directs,
      total_direct_business: microToNumber(team.total_direct_business),
      total_network: team.total_network,
      team_business: { users: team.team_business.users, amount: microToNumber(team.team_business.amount) },
    };
    return ok(wallet);
  });
};
export default walletRoutes;
