import type { TAuthData, TForgotPasswordRequest, TLogin2faChallenge, TLogin2faRequest, TResetPasswordRequest } from '@app/core';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The auth endpoints of spec section 7 (the unauthenticated ones and logout). */
export const register = (body: { name: string; email: string; password: string; referral_id?: string }) => api.post<TAuthData>('/api/auth/register', body);
/** A user with two-factor authentication gets a challenge instead of a token (server.md section 9). */
export const login = (body: { email: string; password: string }) => api.post<TAuthData & Partial<TLogin2faChallenge>>('/api/auth/login', body);
export const login2fa = (body: TLogin2faRequest) => api.post<TAuthData>('/api/auth/login/2fa', body);
export const forgotPassword = (body: TForgotPasswordRequest) => api.post<{ access_id: string }>('/api/auth/forgot-password', body);
export const resetPassword = (body: TResetPasswordRequest) => api.post('/api/auth/reset-password', body);
export const verifyOtp = (body: { access_id: string; otp: string }) => api.post<TAuthData & Partial<TLogin2faChallenge>>('/api/auth/verify-otp', body);
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
