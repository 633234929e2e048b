import { storage } from '../../../lib/storage';

export type SocialProvider = 'google' | 'facebook' | 'instagram';
export const SOCIAL_FAILURE: Record<SocialProvider, string> = {
  google: 'Google authentication failed',
  facebook: 'Facebook authentication failed',
  instagram: 'Instagram authentication failed',
};

/**
 * Reads the social sign-in return (spec sections 2 and 4): token → signed in; requiresReferral
 * with a user JSON → keep it in session storage and go to /referral; anything unreadable → failure.
 */
export function readSocialReturn(
  params: URLSearchParams,
): { kind: 'none' } | { kind: 'token'; token: string; isAdmin: boolean } | { kind: 'referral' } | { kind: 'failed'; message: string } {
  const raw = params.get('provider');
  const provider: SocialProvider = raw === 'facebook' || raw === 'instagram' ? raw : 'google';
  if (params.get('error')) return { kind: 'failed', message: SOCIAL_FAILURE[provider] };
  // A 2FA user's return is handled by readTwoFactorReturn; one without its challenge cannot go on.
  if (params.get('requires2fa') === '1' && !params.get('challenge')) return { kind: 'failed', message: SOCIAL_FAILURE[provider] };
  if (params.get('requiresReferral') === 'true') {
    const user = params.get('user');
    if (!user) return { kind: 'failed', message: SOCIAL_FAILURE[provider] };
    try {
      storage.setSocialUser(JSON.parse(user));
      return { kind: 'referral' };
    } catch {
      return { kind: 'failed', message: SOCIAL_FAILURE[provider] };
    }
  }
  const token = params.get('token');
  if (token) return { kind: 'token', token, isAdmin: params.get('is_admin') === 'true' };
  return { kind: 'none' };
}

/** A social sign-in of a user with two-factor authentication returns with the login challenge (server.md section 9). */
export function readTwoFactorReturn(params: URLSearchParams): string | null {
  if (params.get('requires2fa') !== '1' || params.get('error')) return null;
  return params.get('challenge') || null;
}
