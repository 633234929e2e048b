import { security } from '@app/core/contracts/security';
import { user } from '@app/core/contracts/user';
import { queryOptions } from '@tanstack/react-query';
import { call } from './call';
import { contractQuery, keyOf, keyOfAll } from './query-keys';

/** Data several features read (dashboard, wallet, staking, transfer, withdrawal). */

/** GET /api/user/get-info — always refetched (spec section 9). */
export const userInfoQueryOptions = () => queryOptions({ ...contractQuery(user.info), staleTime: 0, refetchOnMount: 'always' });

/** For a refresh of the user's info after a change elsewhere. */
export const userInfoKey = keyOfAll(user.info);

/** GET /api/user/wallet */
export const walletQueryOptions = () => queryOptions(contractQuery(user.wallet));

/** GET /api/user/settings */
export const settingsQueryOptions = () =>
  queryOptions({ queryKey: keyOf(user.settings), queryFn: async () => (await call(user.settings)).data.settings, staleTime: 5 * 60_000 });

/** GET /api/user/security — 2FA state and sessions (read by /security and the withdraw form). */
export const securityQueryOptions = () => queryOptions(contractQuery(security.info));
