import type { TAuthData } from '@app/core';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The auth endpoints of spec section 7 (the unauthenticated ones and logout). */
export const register = (body: { name: string; email: string; password: string; referral_id?: string }) => api.post<TAuthData>('/api/auth/register', body);
export const login = (body: { email: string; password: string }) => api.post<TAuthData>('/api/auth/login', body);
export const verifyOtp = (body: { access_id: string; otp: string }) => api.post<TAuthData>('/api/auth/verify-otp', body);
export const resendOtp = (body: { access_id: string }) => api.post<TAuthData>('/api/auth/resend-otp', body);
export const updateReferral = (body: { referral_id?: string; username: string }) => api.post<TAuthData>('/api/auth/update-referral', body);
export const checkReferral = (referralId: string) => api.get<{ userName: string }>('/api/auth/checkuser', { referral_id: referralId });

export const providersQueryOptions = () =>
  queryOptions({
    queryKey: ['auth-providers'],
    queryFn: async () => (await api.get<{ google: boolean; facebook: boolean; instagram: boolean }>('/api/auth/providers')).data!,
    staleTime: Infinity,
    retry: false,
  });
