import type { AuthEnvironment } from '../types.js';
import { errorFromResponse, systemError, VitrineError } from '../../errors.js';

/** Refresh-token role: `member` only after a member login; `loggedIn()` is true only then. */
export type TokenRole = 'none' | 'visitor' | 'member';

export interface AccessToken {
  value: string;
  /** Seconds since the epoch (now + `expires_in` at issue). */
  expiresAt: number;
}

export interface RefreshToken {
  value: string;
  role: TokenRole;
}

/** Same shape as the public client's tokens, so stored tokens move between the two. */
export interface Tokens {
  accessToken: AccessToken;
  refreshToken: RefreshToken;
}

export const EMPTY_TOKENS: Tokens = { accessToken: { value: '', expiresAt: 0 }, refreshToken: { value: '', role: 'none' } };

export const TOKEN_PATH = '/oauth2/token';

/** The wire answer of `POST /oauth2/token`. */
export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type?: string;
}

export type TokenRequest =
  | { clientId: string; grantType: 'anonymous' }
  | { clientId: string; grantType: 'refresh_token'; refreshToken: string }
  | { clientId: string; grantType: 'authorization_code'; code: string; codeVerifier: string; redirectUri?: string }
  | Record<string, unknown>;

const nowSeconds = () => Math.floor(Date.now() / 1000);

export function isTokenExpired(token: AccessToken): boolean {
  return token.expiresAt < nowSeconds();
}

/** Renew this long before expiry, so a token does not expire while its request is in flight. */
export const TOKEN_RENEW_MARGIN_SECONDS = 10;

export function needsRenewal(token: AccessToken): boolean {
  return !token.value || token.expiresAt - TOKEN_RENEW_MARGIN_SECONDS < nowSeconds();
}

export function createAccessToken(value: string, expiresInSeconds: number): AccessToken {
  return { value, expiresAt: nowSeconds() + expiresInSeconds };
}

/** `POST /oauth2/token`; any non-200 throws the contract's token error message. */
export async function fetchTokens(env: AuthEnvironment, payload: TokenRequest, headers: Record<string, string> = {}): Promise<TokenResponse> {
  let res: Response;
  try {
    res = await env.fetch(`${env.host.replace(/\/+$/, '')}${TOKEN_PATH}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(payload),
    });
  } catch (thrown) {
    throw systemError(thrown);
  }
  if (res.status !== 200) {
    let json: unknown;
    try {
      json = await res.json();
    } catch {
      // no JSON body: the message simply has no "Response:" part
    }
    const requestId = res.headers.get('x-wix-request-id') ?? undefined;
    // The contract's message, with the code, status and request id of the wire error for callers that branch on them.
    const wire = errorFromResponse(res.status, res.statusText, requestId, json);
    const message = `Failed to fetch tokens from OAuth API: ${res.statusText}. request id: ${requestId ?? null}.${json === undefined ? '' : ` Response: ${JSON.stringify(json)}`}`;
    throw new VitrineError(message, wire.kind, wire.code, res.status, requestId, wire.details);
  }
  return (await res.json()) as TokenResponse;
}
