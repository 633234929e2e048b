import type { FastifyPluginAsync } from 'fastify';
import healthRoutes from './health/routes';
import supportRoutes from './support/routes';
import adminRoutes from './admin/routes';
import authRoutes from './auth/routes';
import usersRoutes from './users/routes';
import settingsRoutes from './settings/routes';
import stakingRoutes from './staking/routes';
import incomeRoutes from './income/routes';
import walletRoutes from './wallet/routes';
import paymentsRoutes from './payments/routes';
import custodyRoutes from './custody/routes';
import teamRoutes from './team/routes';
import transfersRoutes from './transfers/routes';
import withdrawalsRoutes from './withdrawals/routes';
import payoutRoutes from './payouts/routes';
import historyRoutes from './history/routes';
import socialRoutes from './social/routes';
import securityRoutes from './security/routes';

/** Every module's routes, registered under /api. */
export const modules: FastifyPluginAsync[] = [
  healthRoutes,
  supportRoutes,
  adminRoutes,
  authRoutes,
  usersRoutes,
  settingsRoutes,
  stakingRoutes,
  incomeRoutes,
  walletRoutes,
  paymentsRoutes,
  custodyRoutes,
  teamRoutes,
  transfersRoutes,
  withdrawalsRoutes,
  payoutRoutes,
  historyRoutes,
  socialRoutes,
  securityRoutes,
];
