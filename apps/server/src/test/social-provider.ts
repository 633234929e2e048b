import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** An account the test provider can sign in as. */
export interface TestAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
}

/**
 * A real OpenID provider (oidc-provider) on a free port for the social sign-in tests: discovery,
 * RS256 JWKS, PKCE required, code flow, userinfo. Its login/consent step is a custom interaction
 * that signs in as `nextAccount` (or denies, when `deny` is set) without any HTML form.
 */
export async function startTestProvider(opts: { clientId: string; clientSecret: string; redirectUris: string[] }) {
  const accounts = new Map<string, TestAccount>();
  const state: { nextAccount?: TestAccount; deny: boolean } = { deny: false };
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: opts.clientId,
        client_secret: opts.clientSecret,
        redirect_uris: opts.redirectUris,
        token_endpoint_auth_method: 'client_secret_post',
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    pkce: { required: () => true },
    ttl: { AuthorizationCode: 60, AccessToken: 600, IdToken: 600, Interaction: 600, Grant: 600, Session: 600 },
    jwks: { keys: [{ ...key, kid: 'test-key', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: ['social-test-cookie-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx: unknown, sub: string) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: () => ({ ...account }) };
    },
  });

  const handle = provider.callback();
  server.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return handle(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      if (state.deny || !state.nextAccount) {
        await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The user refused' }, { mergeWithLastSubmission: false });
        return;
      }
      const account = state.nextAccount;
      accounts.set(account.sub, account);
      const grant = new provider.Grant({ accountId: account.sub, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { login: { accountId: account.sub }, consent: { grantId } }, { mergeWithLastSubmission: false });
    })().catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });

  return {
    issuer,
    /** The account the next interaction signs in as; update it to change what the provider reports. */
    signInAs(account: TestAccount) {
      state.nextAccount = account;
      state.deny = false;
    },
    denyNext() {
      state.deny = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Follows the browser's redirects through the provider (keeping its cookies) until it is sent
 * back to `callbackPrefix`; returns that callback URL.
 */
export async function followProvider(startUrl: string, callbackPrefix: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = startUrl;
  for (let i = 0; i < 15; i++) {
    if (url.startsWith(callbackPrefix)) return new URL(url);
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`provider stopped at ${url} with ${res.status}: ${(await res.text()).slice(0, 300)}`);
    url = new URL(location, url).href;
  }
  throw new Error('too many redirects');
}

/**
 * A small but real OAuth 2 authorization server in the Facebook/Instagram style (no OpenID): the
 * authorize endpoint issues a single-use code bound to client, redirect URI and S256 challenge; the
 * token endpoint checks client secret, redirect URI and code_verifier; /me answers the profile for
 * the access token only.
 */
export async function startTestOAuth2Server(opts: { clientId: string; clientSecret: string }) {
  const codes = new Map<string, { redirectUri: string; challenge: string; profile: Record<string, unknown> }>();
  const tokens = new Map<string, Record<string, unknown>>();
  const state: { profile: Record<string, unknown> } = { profile: {} };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/authorize') {
      const q = url.searchParams;
      const redirectUri = q.get('redirect_uri') ?? '';
      if (q.get('client_id') !== opts.clientId || q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge'))
        return json(400, { error: 'invalid_request' });
      const code = randomBytes(16).toString('hex');
      codes.set(code, { redirectUri, challenge: q.get('code_challenge')!, profile: { ...state.profile } });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const f = new URLSearchParams(body);
        const entry = codes.get(f.get('code') ?? '');
        codes.delete(f.get('code') ?? '');
        const verifier = f.get('code_verifier') ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (f.get('client_id') !== opts.clientId || f.get('client_secret') !== opts.clientSecret) return json(401, { error: 'invalid_client' });
        if (!entry || entry.redirectUri !== f.get('redirect_uri') || entry.challenge !== challenge) return json(400, { error: 'invalid_grant' });
        const token = randomBytes(16).toString('hex');
        tokens.set(token, entry.profile);
        json(200, { access_token: token, token_type: 'bearer' });
      });
      return;
    }
    if (url.pathname === '/me') {
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      const profile = tokens.get(token);
      return profile ? json(200, profile) : json(401, { error: 'invalid_token' });
    }
    json(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    /** What /me reports for the next code issued. */
    setProfile(profile: Record<string, unknown>) {
      state.profile = profile;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
