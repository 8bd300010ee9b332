import { createClient } from '../../client.js';
import { redirects } from '../../modules/redirects/index.js';
import { sha256 } from './sha256.js';
import type { OAuthCore } from './visitor.js';
import { createAccessToken, type Tokens } from './tokens.js';

/** RFC 7636 verifier: 43-128 characters of the unreserved set; 43 by default (spec section 9). */
export const VERIFIER_MIN_LENGTH = 43;
export const VERIFIER_MAX_LENGTH = 128;
const UNRESERVED = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~';

export interface OAuthData {
  redirectUri: string;
  originalUri: string;
  codeChallenge: string;
  codeVerifier: string;
  state: string;
}

export type ResponseMode = 'query' | 'fragment' | 'web_message';

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A verifier and its S256 challenge. Throws `Expected a length between 43 and 128` outside the bounds. */
export function pkceChallenge(length = VERIFIER_MIN_LENGTH): { codeVerifier: string; codeChallenge: string } {
  if (!Number.isInteger(length) || length < VERIFIER_MIN_LENGTH || length > VERIFIER_MAX_LENGTH) {
    throw new Error(`Expected a length between ${VERIFIER_MIN_LENGTH} and ${VERIFIER_MAX_LENGTH}. Received ${length}.`);
  }
  // 66 symbols: reject bytes >= 198 (3 * 66) so every symbol is equally likely.
  let verifier = '';
  while (verifier.length < length) {
    for (const b of crypto.getRandomValues(new Uint8Array(length))) {
      if (b < 198 && verifier.length < length) verifier += UNRESERVED[b % 66];
    }
  }
  return { codeVerifier: verifier, codeChallenge: base64url(sha256(new TextEncoder().encode(verifier))) };
}

const randomState = () => base64url(crypto.getRandomValues(new Uint8Array(32)));

export interface PkceFlows {
  generateOAuthData(redirectUri: string, originalUri?: string): OAuthData;
  getAuthUrl(oauthData: OAuthData, opts?: { prompt?: 'login' | 'none'; responseMode?: ResponseMode; sessionToken?: string }): Promise<{ authUrl: string; authorizationEndpoint: string; sessionToken?: string }>;
  parseFromUrl(url?: string, responseMode?: ResponseMode): { code: string | null; state: string | null; error?: string; errorDescription?: string | null };
  getMemberTokens(code: string | null | undefined, state: string | null | undefined, oauthData: Pick<OAuthData, 'state' | 'codeVerifier'> & { redirectUri?: string }): Promise<Tokens>;
}

/** A client for the flows' own module calls, on the strategy's host and fetch with visitor/member auth. */
export function flowClient(core: OAuthCore) {
  const env = core.env();
  return createClient({ host: env.host, fetch: env.fetch, auth: core.visitorAuth, modules: { redirects } });
}

export function pkceFlows(core: OAuthCore): PkceFlows {
  const getAuthUrl: PkceFlows['getAuthUrl'] = async (oauthData, opts = {}) => {
    const { redirectSession } = await flowClient(core).redirects.createRedirectSession({
      auth: {
        authRequest: {
          clientId: core.clientId,
          ...(oauthData.redirectUri ? { redirectUri: oauthData.redirectUri } : {}),
          codeChallenge: oauthData.codeChallenge,
          codeChallengeMethod: 'S256',
          responseMode: opts.responseMode ?? 'fragment',
          responseType: 'code',
          scope: 'offline_access',
          state: oauthData.state,
          ...(opts.sessionToken ? { sessionToken: opts.sessionToken } : {}),
        },
        prompt: opts.prompt ?? 'login',
      },
    });
    return {
      authUrl: redirectSession.fullUrl,
      authorizationEndpoint: redirectSession.urlDetails.endpoint,
      ...(redirectSession.sessionToken ? { sessionToken: redirectSession.sessionToken } : {}),
    };
  };
  return {
    generateOAuthData(redirectUri, originalUri) {
      const { codeVerifier, codeChallenge } = pkceChallenge();
      return { redirectUri, originalUri: originalUri ?? '', codeChallenge, codeVerifier, state: randomState() };
    },
    getAuthUrl,
    parseFromUrl(url, responseMode = 'fragment') {
      const parsed = new URL(url ?? globalThis.location.href);
      const params = responseMode === 'query' ? parsed.searchParams : new URLSearchParams(parsed.hash.slice(1));
      const error = params.get('error');
      return { code: params.get('code'), state: params.get('state'), ...(error ? { error, errorDescription: params.get('error_description') } : {}) };
    },
    async getMemberTokens(code, state, oauthData) {
      if (!code || !state) throw new Error('Missing code or _state');
      if (state !== oauthData.state) throw new Error('Invalid _state');
      const res = await core.fetchTokens({
        clientId: core.clientId, grantType: 'authorization_code', code, codeVerifier: oauthData.codeVerifier,
        ...(oauthData.redirectUri ? { redirectUri: oauthData.redirectUri } : {}),
      });
      return { accessToken: createAccessToken(res.access_token, res.expires_in), refreshToken: { value: res.refresh_token, role: 'member' } };
    },
  };
}
