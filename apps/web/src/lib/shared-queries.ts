import { security } from '@app/core/contracts/security';
import { user } from '@app/core/contracts/user';
import { queryOptions } from '@tanstack/react-query';
import { call, fetchData } from './call';
import { queryKeys } from './query-keys';

/** Data several features read (dashboard, wallet, staking, transfer, withdrawal). */

/** GET /api/user/get-info — always refetched (spec section 9). */
export const userInfoQueryOptions = () => queryOptions({ queryKey: queryKeys.userInfo, queryFn: fetchData(user.info), staleTime: 0, refetchOnMount: 'always' });

/** GET /api/user/wallet */
export const walletQueryOptions = () => queryOptions({ queryKey: queryKeys.wallet, queryFn: fetchData(user.wallet) });

/** GET /api/user/settings */
export const settingsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.settings, queryFn: async () => (await call(user.settings)).data.settings, staleTime: 5 * 60_000 });

/** GET /api/user/security — 2FA state and sessions (read by /security and the withdraw form). */
export const securityQueryOptions = () => queryOptions({ queryKey: queryKeys.security, queryFn: fetchData(security.info) });
