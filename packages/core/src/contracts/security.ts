import { z } from 'zod';
import { ZChangePasswordRequest, ZSessionIdParams, ZTwoFactorCodeRequest } from '../schemas/security';
import { defineContract, ZId, ZIsoTime, type DataOut } from './define';

const tag = 'security';

export const ZSecurityInfo = z.object({
  two_factor_enabled: z.boolean(),
  email: z.string(),
  sessions: z.array(
    z.object({
      id: ZId,
      created_at: ZIsoTime,
      last_used_at: ZIsoTime.nullable(),
      ip: z.string().nullable(),
      user_agent: z.string().nullable(),
      current: z.boolean(),
    }),
  ),
});

export const security = {
  info: defineContract({ method: 'GET', path: '/user/security', auth: 'user', tag, summary: '2FA state and live sessions', data: ZSecurityInfo }),
  revokeSession: defineContract({
    method: 'DELETE',
    path: '/user/sessions/:id',
    auth: 'user',
    tag,
    summary: 'Signs one of my sessions out',
    params: ZSessionIdParams,
    data: null,
  }),
  changePassword: defineContract({
    method: 'POST',
    path: '/user/change-password',
    errors: ['VALIDATION', 'TOO_MANY_ATTEMPTS'],
    auth: 'user',
    tag,
    summary: 'Changes the password (other sessions end)',
    body: ZChangePasswordRequest,
    data: null,
  }),
  setup2fa: defineContract({
    method: 'POST',
    path: '/user/2fa/setup',
    auth: 'user',
    tag,
    summary: 'A new TOTP secret to scan',
    data: z.object({ secret: z.string(), otpauth_url: z.string() }),
  }),
  enable2fa: defineContract({
    method: 'POST',
    path: '/user/2fa/enable',
    errors: ['INVALID_2FA', 'BAD_REQUEST', 'TOO_MANY_ATTEMPTS', 'CONFLICT'],
    auth: 'user',
    tag,
    summary: 'Turns 2FA on; answers the recovery codes once',
    body: ZTwoFactorCodeRequest,
    data: z.object({ recovery_codes: z.array(z.string()) }),
  }),
  disable2fa: defineContract({
    method: 'POST',
    path: '/user/2fa/disable',
    errors: ['INVALID_2FA', 'BAD_REQUEST', 'TOO_MANY_ATTEMPTS'],
    auth: 'user',
    tag,
    summary: 'Turns 2FA off',
    body: ZTwoFactorCodeRequest,
    data: null,
  }),
};

export type TSecurityInfo = z.output<typeof ZSecurityInfo>;
export type TSecuritySession = TSecurityInfo['sessions'][number];
export type TTwoFactorSetup = DataOut<typeof security.setup2fa>;
export type TTwoFactorEnabled = DataOut<typeof security.enable2fa>;
