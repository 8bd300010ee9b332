import { createHash, randomBytes } from 'node:crypto';
import { call, type TestServer } from './harness.js';

export function codeFrom(mail: { subject: string }): string {
  const code = /(\d{6})/.exec(mail.subject)?.[1];
  if (!code) throw new Error(`no code in "${mail.subject}"`);
  return code;
}

export function pkce(length = 43): { verifier: string; challenge: string } {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';
  const bytes = randomBytes(length);
  const verifier = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

let ipCounter = 1;
/** A distinct client IP per test (the server trusts X-Forwarded-For from 127.0.0.1 in these tests). */
export function freshIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

export const uniqueEmail = (tag: string) => `${tag}-${randomBytes(4).toString('hex')}@example.com`;
export const STRONG_PASSWORD = 'correct horse battery staple 42';

export interface Actor { ip: string; token: string }

export async function visitor(t: TestServer, ip = freshIp()): Promise<Actor> {
  const res = await call(t.url, '/oauth2/token', { body: { clientId: t.clientId, grantType: 'anonymous' }, headers: { 'x-forwarded-for': ip } });
  if (res.status !== 200) throw new Error(`anonymous grant failed ${res.status}`);
  return { ip, token: res.body.access_token as string };
}

export function as(actor: Actor, body?: unknown): { auth: string; headers: Record<string, string>; body?: unknown } {
  return { auth: actor.token, headers: { 'x-forwarded-for': actor.ip }, ...(body !== undefined ? { body } : {}) };
}

/** Runs the auth redirect session with prompt=none and a session token, answering code + state from the redirect. */
export async function codeForSession(t: TestServer, actor: Actor, sessionToken: string, opts: { redirectUri?: string; responseMode?: string; challenge: string; state?: string }): Promise<{ code: string | null; state: string | null; location: string }> {
  const state = opts.state ?? randomBytes(16).toString('base64url');
  const rs = await call(t.url, '/_api/redirects-api/v1/redirect-session', as(actor, {
    auth: {
      authRequest: {
        clientId: t.clientId, redirectUri: opts.redirectUri ?? 'http://localhost:5173/callback', codeChallenge: opts.challenge, codeChallengeMethod: 'S256',
        responseMode: opts.responseMode ?? 'query', responseType: 'code', scope: 'offline_access', state, sessionToken,
      },
      prompt: 'none',
    },
  }));
  if (rs.status !== 200) throw new Error(`redirect session failed ${rs.status} ${JSON.stringify(rs.body)}`);
  const page = await fetch(rs.body.redirectSession.fullUrl.replace(/^https?:\/\/[^/]+/, t.url), { redirect: 'manual' });
  const location = page.headers.get('location') ?? '';
  const url = new URL(location);
  const params = (opts.responseMode ?? 'query') === 'fragment' ? new URLSearchParams(url.hash.slice(1)) : url.searchParams;
  return { code: params.get('code'), state: params.get('state'), location };
}
