import * as oidc from 'openid-client';
import type { Config } from '../../config';
import type { SocialProviderName } from './table';

/** What the server keeps of a provider account. */
export interface SocialProfile {
  subject: string;
  email: string | null;
  /** True only when the provider vouches for the e-mail (OIDC email_verified; Facebook: present). */
  emailVerified: boolean;
  name: string | null;
}

export interface FlowSecrets {
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
}

export interface SocialProvider {
  name: SocialProviderName;
  configured: boolean;
  authorizationUrl(flow: FlowSecrets): Promise<URL>;
  /** Checks the provider's answer (state, error, PKCE, nonce) and returns the account; throws on any failure. */
  exchange(callbackUrl: URL, flow: FlowSecrets): Promise<SocialProfile>;
}

export class ProviderError extends Error {}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : null);

// ---------------------------------------------------------------- Google (OpenID Connect)

const discoveries = new Map<string, Promise<oidc.Configuration>>();

function discover(issuerUrl: string, clientId: string, clientSecret: string): Promise<oidc.Configuration> {
  const key = JSON.stringify([issuerUrl, clientId, clientSecret]);
  let found = discoveries.get(key);
  if (!found) {
    const issuer = new URL(issuerUrl);
    // Plain http only for a local issuer (tests, development); a real provider is always https.
    const insecure = issuer.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(issuer.hostname);
    found = oidc.discovery(issuer, clientId, clientSecret, undefined, insecure ? { execute: [oidc.allowInsecureRequests] } : undefined);
    found.catch(() => discoveries.delete(key));
    discoveries.set(key, found);
  }
  return found;
}

function googleProvider(cfg: Config['oauth']['google']): SocialProvider {
  const configured = Boolean(cfg.clientId && cfg.clientSecret);
  const config = () => discover(cfg.issuerUrl, cfg.clientId!, cfg.clientSecret!);
  return {
    name: 'google',
    configured,
    async authorizationUrl(flow) {
      return oidc.buildAuthorizationUrl(await config(), {
        redirect_uri: flow.redirectUri,
        response_type: 'code',
        scope: 'openid email profile',
        state: flow.state,
        nonce: flow.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(flow.codeVerifier),
        code_challenge_method: 'S256',
      });
    },
    async exchange(callbackUrl, flow) {
      const c = await config();
      // Checks state, the error parameter, iss (when advertised), PKCE, the ID token signature, aud, exp and nonce.
      const tokens = await oidc.authorizationCodeGrant(c, callbackUrl, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new ProviderError('no ID token');
      let info: Record<string, unknown> = claims;
      // Some providers put e-mail and name only in userinfo (the sub must match the ID token's).
      if (str(claims.email) === null) info = { ...(await oidc.fetchUserInfo(c, tokens.access_token, claims.sub)), sub: claims.sub };
      return {
        subject: claims.sub,
        email: str(info.email),
        emailVerified: info.email_verified === true || info.email_verified === 'true',
        name: str(info.name),
      };
    },
  };
}

// ---------------------------------------------------------------- Facebook, Instagram (OAuth 2 code flow)

interface OAuth2Endpoints {
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  authUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
}

function oauth2Provider(
  name: 'facebook' | 'instagram',
  cfg: OAuth2Endpoints,
  scope: string,
  toProfile: (info: Record<string, unknown>) => SocialProfile,
): SocialProvider {
  return {
    name,
    configured: Boolean(cfg.clientId && cfg.clientSecret),
    async authorizationUrl(flow) {
      const url = new URL(cfg.authUrl);
      url.searchParams.set('client_id', cfg.clientId!);
      url.searchParams.set('redirect_uri', flow.redirectUri);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('scope', scope);
      url.searchParams.set('state', flow.state);
      url.searchParams.set('code_challenge', await oidc.calculatePKCECodeChallenge(flow.codeVerifier));
      url.searchParams.set('code_challenge_method', 'S256');
      return url;
    },
    async exchange(callbackUrl, flow) {
      const q = callbackUrl.searchParams;
      if (q.get('error')) throw new ProviderError(`provider error: ${q.get('error')}`);
      if (q.getAll('state').length !== 1 || q.get('state') !== flow.state) throw new ProviderError('state mismatch');
      const code = q.get('code');
      if (!code) throw new ProviderError('no code');
      const tokenRes = await fetch(cfg.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          client_id: cfg.clientId!,
          client_secret: cfg.clientSecret!,
          grant_type: 'authorization_code',
          redirect_uri: flow.redirectUri,
          code,
          code_verifier: flow.codeVerifier,
        }),
        signal: AbortSignal.timeout(10_000),
      });
      const token = (await tokenRes.json().catch(() => ({}))) as { access_token?: unknown };
      const accessToken = str(token.access_token);
      if (!tokenRes.ok || !accessToken) throw new ProviderError(`token endpoint answered ${tokenRes.status}`);
      const infoUrl = new URL(cfg.userinfoUrl);
      infoUrl.searchParams.set('access_token', accessToken);
      const infoRes = await fetch(infoUrl, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
        signal: AbortSignal.timeout(10_000),
      });
      const info = (await infoRes.json().catch(() => ({}))) as Record<string, unknown>;
      if (!infoRes.ok) throw new ProviderError(`userinfo answered ${infoRes.status}`);
      const profile = toProfile(info);
      if (!profile.subject) throw new ProviderError('no account id');
      return profile;
    },
  };
}

/** The provider objects for one configuration. */
export function socialProvider(config: Config, name: SocialProviderName): SocialProvider {
  const o = config.oauth;
  if (name === 'google') return googleProvider(o.google);
  if (name === 'facebook') {
    return oauth2Provider('facebook', o.facebook, 'email,public_profile', (info) => {
      const email = str(info.email);
      // Facebook only returns an e-mail it has confirmed, so a present e-mail counts as verified.
      return { subject: str(info.id) ?? str(info.sub) ?? '', email, emailVerified: email !== null, name: str(info.name) };
    });
  }
  return oauth2Provider('instagram', o.instagram, 'user_profile', (info) => {
    const subject = str(info.id) ?? str(info.sub) ?? '';
    // Instagram has no e-mail: a placeholder that no real inbox or account can hold, never linked.
    return { subject, email: null, emailVerified: false, name: str(info.name) ?? str(info.username) };
  });
}
