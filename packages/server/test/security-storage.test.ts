import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { call, startTestServer, type TestServer } from './harness.js';
import { SLOW_START_MS } from './events-support.js';
import { as, codeForSession, pkce, STRONG_PASSWORD, uniqueEmail, visitor } from './identity-helpers.js';
import { updateSite } from '../src/domains/sites/service.js';

/**
 * SECURITY.md 11.4.2 (argon2id), 6.4.x / 6.5.x / 6.6.x / 10.4.3 (secrets stored hashed, lifetimes at
 * most 10 minutes for codes, 1 hour for reset links) and 4.3.1 (statement timeout), read from the
 * database after real HTTP flows: no table holds a raw password, token or code.
 */

let t: TestServer;
const db = () => t.server.deps.storage.db;

beforeAll(async () => {
  t = await startTestServer({ smtpUrl: undefined, trustedProxies: ['127.0.0.1'] });
}, SLOW_START_MS);
afterAll(() => t?.close());

/** Every text cell of the identity tables, to prove a raw secret is stored nowhere. */
async function allIdentityText(): Promise<string> {
  const tables = ['identities', 'identity_sessions', 'auth_states', 'oauth_codes', 'redirect_sessions', 'recovery_tokens', 'refresh_tokens', 'api_keys'] as const;
  const parts: string[] = [];
  for (const table of tables) parts.push(`${table}: ${JSON.stringify(await db().selectFrom(table).selectAll().execute())}`);
  return parts.join('\n');
}

const minutes = (row: { created_date: string; expires_date: string }) => (Date.parse(row.expires_date) - Date.parse(row.created_date)) / 60_000;

describe('secrets at rest', () => {
  it('passwords are argon2id hashes; codes, refresh tokens and API keys are stored hashed', async () => {
    const v = await visitor(t);
    const email = uniqueEmail('rest');
    const password = `${STRONG_PASSWORD} at rest`;
    const reg = await call(t.url, '/_api/iam/authentication/v2/register', as(v, { loginId: { email }, password }));
    expect(reg.body.state).toBe('SUCCESS');
    const identity = await db().selectFrom('identities').select(['password_hash']).where('id', '=', reg.body.identity.id).executeTakeFirstOrThrow();
    expect(identity.password_hash).toMatch(/^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$/);

    const { verifier, challenge } = pkce();
    const { code } = await codeForSession(t, v, reg.body.sessionToken, { challenge });
    const oauthCode = await db().selectFrom('oauth_codes').selectAll().where('identity_id', '=', reg.body.identity.id).executeTakeFirstOrThrow();
    expect(minutes(oauthCode)).toBeLessThanOrEqual(10);
    const tokens = await call(t.url, '/oauth2/token', { body: { clientId: t.clientId, grantType: 'authorization_code', code, codeVerifier: verifier, redirectUri: 'http://localhost:5173/callback' } });
    expect(tokens.status).toBe(200);

    // Every secret handed out carries at least 128 random bits (prefix `xx_` + base64url).
    for (const secret of [reg.body.sessionToken as string, code!, tokens.body.refresh_token as string, t.apiKey]) {
      const body = secret.replace(/^[a-z]+_/, '');
      expect(body, secret.slice(0, 3)).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(Buffer.from(body, 'base64url').length * 8, secret.slice(0, 3)).toBeGreaterThanOrEqual(128);
    }
    const everything = await allIdentityText();
    for (const secret of [password, reg.body.sessionToken as string, code!, tokens.body.refresh_token, t.apiKey]) {
      expect(secret.length).toBeGreaterThan(8);
      const at = everything.indexOf(secret);
      expect(at, `raw secret stored: ${secret.slice(0, 6)}... in ${everything.slice(Math.max(0, at - 400), at + 60)}`).toBe(-1);
    }
  });

  it('e-mail codes live at most 10 minutes and are stored hashed; reset links live 1 hour and are stored hashed', async () => {
    await updateSite(db(), t.site.id, { settings: { ...t.site.settings, requireEmailVerification: true } });
    try {
      const v = await visitor(t);
      const email = uniqueEmail('codes');
      const reg = await call(t.url, '/_api/iam/authentication/v2/register', as(v, { loginId: { email }, password: STRONG_PASSWORD }));
      expect(reg.body.state).toBe('REQUIRE_EMAIL_VERIFICATION');
      const mail = await waitForOutbox(email, /\d{6}/);
      const sixDigits = /(\d{6})/.exec(mail.subject + mail.text)![1]!;
      const state = await db().selectFrom('auth_states').selectAll().where('identity_id', '=', reg.body.identity.id).executeTakeFirstOrThrow();
      expect(minutes(state)).toBeLessThanOrEqual(10);
      expect(state.code_hash).not.toBe(sixDigits);
      expect(JSON.stringify(state)).not.toContain(reg.body.stateToken);
    } finally {
      await updateSite(db(), t.site.id, { settings: { ...t.site.settings, requireEmailVerification: false } });
    }

    const v = await visitor(t);
    const email = uniqueEmail('reset');
    const reg = await call(t.url, '/_api/iam/authentication/v2/register', as(v, { loginId: { email }, password: STRONG_PASSWORD }));
    expect(reg.status).toBe(200);
    expect((await call(t.url, '/_api/iam/recovery/v1/send-email', as(v, { email }))).status).toBe(200);
    const mail = await waitForOutbox(email, /recoveryToken=/);
    const token = decodeURIComponent(/recoveryToken=([^&\s"<]+)/.exec(mail.text)![1]!);
    expect(Buffer.from(token.replace(/^[a-z]+_/, ''), 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    const row = await db().selectFrom('recovery_tokens').selectAll().where('identity_id', '=', reg.body.identity.id).executeTakeFirstOrThrow();
    expect(minutes(row)).toBeLessThanOrEqual(60);
    expect(JSON.stringify(row)).not.toContain(token);
  });
});

async function waitForOutbox(to: string, match?: RegExp): Promise<{ subject: string; text: string }> {
  const started = Date.now();
  for (;;) {
    const rows = await db().selectFrom('notification_mails').select(['subject', 'text']).where('to_address', '=', to).execute();
    const found = rows.find((r) => !match || match.test(r.text));
    if (found) return found;
    if (Date.now() - started > 5000) throw new Error(`no outbox mail to ${to}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('statement timeout (4.3.1)', () => {
  it.skipIf(!process.env.DATABASE_URL)('PostgreSQL sessions of the server carry the configured statement_timeout', async () => {
    const res = await sql<{ statement_timeout: string }>`show statement_timeout`.execute(db());
    const value = res.rows[0]!.statement_timeout;
    const ms = value.endsWith('ms') ? Number.parseInt(value, 10) : value.endsWith('s') ? Number.parseInt(value, 10) * 1000 : value.endsWith('min') ? Number.parseInt(value, 10) * 60_000 : Number(value);
    expect(ms).toBe(t.config.statementTimeoutMs);
    expect(ms).toBeGreaterThan(0);
  });
});

