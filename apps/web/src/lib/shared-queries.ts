import type { TSecurityInfo, TSettings, TUserInfo, TWallet } from '@app/core';
import { queryOptions } from '@tanstack/react-query';
import { api } from './api-client';
import { queryKeys } from './query-keys';

/** Data several features read (dashboard, wallet, staking, transfer, withdrawal). */

/** GET /api/user/get-info — always refetched (spec section 9). */
export const userInfoQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.userInfo,
    queryFn: async () => (await api.get<TUserInfo>('/api/user/get-info')).data!,
    staleTime: 0,
    refetchOnMount: 'always',
  });

/** GET /api/user/wallet */
export const walletQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.wallet,
    queryFn: async () => (await api.get<TWallet>('/api/user/wallet')).data!,
  });

/** GET /api/user/settings */
export const settingsQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.settings,
    queryFn: async () => (await api.get<{ settings: TSettings }>('/api/user/settings')).data!.settings,
    staleTime: 5 * 60_000,
  });

/** GET /api/user/security — 2FA state and sessions (read by /security and the withdraw form). */
export const securityQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.security,
    queryFn: async () => (await api.get<TSecurityInfo>('/api/user/security')).data!,
  });
