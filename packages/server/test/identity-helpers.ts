import { createHash, randomBytes } from 'node:crypto';
import { SMTPServer } from 'smtp-server';
import { call, type TestServer } from './harness.js';

/** A real SMTP receiver on a free port; the server under test sends to it through nodemailer. */
export interface Mailbox {
  url: string;
  messages: { to: string[]; raw: string; subject: string; text: string }[];
  waitFor(to: string, match?: RegExp, timeoutMs?: number): Promise<{ subject: string; text: string }>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export async function startMailbox(): Promise<Mailbox> {
  const messages: Mailbox['messages'] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const full = Buffer.concat(chunks).toString('utf8');
        const subject = /^Subject: (.*)$/m.exec(full)?.[1]?.trim() ?? '';
        const bodyStart = full.indexOf('\r\n\r\n');
        const text = decodeQuotedPrintable(bodyStart >= 0 ? full.slice(bodyStart + 4) : full);
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw: full, subject, text });
        callback();
      });
    },
  });
  // A sender that dies mid-connection (the fault tests kill server processes) resets its socket;
  // that is the sender's business, not a failure of the mailbox.
  server.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'ECONNRESET') throw err;
  });
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.server.address() as { port: number }).port)));
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(to, match, timeoutMs = 5000) {
      const start = Date.now();
      const seen = new Set<number>();
      for (;;) {
        const found = messages.find((m, i) => !seen.has(i) && m.to.includes(to.toLowerCase()) && (!match || match.test(m.subject + '\n' + m.text)));
        if (found) {
          messages.splice(messages.indexOf(found), 1);
          return { subject: found.subject, text: found.text };
        }
        if (Date.now() - start > timeoutMs) throw new Error(`no mail to ${to} matching ${String(match)}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

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
