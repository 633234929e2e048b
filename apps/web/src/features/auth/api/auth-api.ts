import type { TForgotPasswordRequest, TLogin2faRequest, TLoginRequest, TRegisterRequest, TResetPasswordRequest } from '@app/core';
import { auth } from '@app/core/contracts/auth';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/call';
import { contractQuery } from '../../../lib/query-keys';

/** The auth endpoints of spec section 7 (the unauthenticated ones and logout). */
export const register = (body: TRegisterRequest) => call(auth.register, { body });
/** A user with two-factor authentication gets a challenge instead of a token (server.md section 9). */
export const login = (body: TLoginRequest) => call(auth.login, { body });
export const login2fa = (body: TLogin2faRequest) => call(auth.login2fa, { body });
export const forgotPassword = (body: TForgotPasswordRequest) => call(auth.forgotPassword, { body });
export const resetPassword = (body: TResetPasswordRequest) => call(auth.resetPassword, { body });
export const verifyOtp = (body: { access_id: string; otp: string }) => call(auth.verifyOtp, { body });
export const resendOtp = (body: { access_id: string }) => call(auth.resendOtp, { body });
export const updateReferral = (body: { referral_id?: string; username: string }) => call(auth.updateReferral, { body });
export const checkReferral = (referralId: string) => call(auth.checkUser, { query: { referral_id: referralId } });

export const providersQueryOptions = () => queryOptions({ ...contractQuery(auth.providers), staleTime: Infinity, retry: false });
