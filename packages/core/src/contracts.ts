/**
 * Every endpoint of the API, once (issue 13). Imported as `@app/core/contracts` so the pages that
 * call no API do not carry the response schemas.
 */
import type { Contract } from './contracts/define';
import { admin } from './contracts/admin';
import { auth } from './contracts/auth';
import { health } from './contracts/health';
import { internal } from './contracts/internal';
import { history, income, staking, team, transfers, withdrawals } from './contracts/money';
import { csvExports } from './contracts/exports';
import { demoPayments, payments } from './contracts/payments';
import { security } from './contracts/security';
import { signer } from './contracts/signer';
import { support } from './contracts/support';
import { user } from './contracts/user';

export * from './contracts/define';
export {
  admin,
  auth,
  health,
  internal,
  history,
  income,
  staking,
  team,
  transfers,
  withdrawals,
  demoPayments,
  payments,
  security,
  signer,
  support,
  user,
  csvExports,
};
export { socialContracts, SOCIAL_PROVIDER_NAMES, ZAuthData, type TAuthData } from './contracts/auth';
export * from './contracts/money';
export * from './contracts/payments';
export * from './contracts/security';
export * from './contracts/signer';
export * from './contracts/support';
export * from './contracts/user';
export * from './contracts/admin';
export * from './schemas/admin';

/** The contracts by feature. */
export const contracts = {
  health,
  auth,
  user,
  security,
  staking,
  income,
  team,
  transfers,
  withdrawals,
  history,
  support,
  payments,
  demoPayments,
  admin,
  internal,
  signer,
  csvExports,
} as const;

/** Every contract once (the /payments and /demo-payments share schemas, not paths). */
export const allContracts: Contract[] = Object.values(contracts).flatMap((group) => Object.values(group) as Contract[]);
