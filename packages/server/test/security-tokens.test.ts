import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import { call, startTestServer, visitorTokens, type TestServer } from './harness.js';
import { SLOW_START_MS } from './events-support.js';
import { listSigningKeys } from '../src/domains/identity/store.js';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../src/domains/identity/keys.js';
import { memberTokenPair, ownerCreateMember, serviceContext } from './member-tokens.js';
import { issueTokenPair } from '../src/domains/identity/service.js';
import { uniqueEmail } from './identity-helpers.js';

/**
 * SECURITY.md V9 / V10.4.8: access tokens are JWS checked against an algorithm allowlist, with no key
 * taken from the token header, and `iss`/`aud`/`exp` verified; refresh tokens stop at their absolute
 * lifetime; tokens carry at least 128 bits from a CSPRNG. Tokens are forged here with jose, some with
 * the server's own private key so that only the claim under test is wrong.
 */

let t: TestServer;
let serverKey: { kid: string; key: CryptoKey | Uint8Array };
let claims: JWTPayload & { sub: string };

/** A members "my" route: only a valid member token answers 200. */
const ME = '/members/v1/members/my';
/** A catalog read any visitor may call. */

beforeAll(async () => {
  t = await startTestServer();
  const [stored] = await listSigningKeys(t.server.deps.storage.db);
  serverKey = { kid: stored!.kid, key: (await importJWK(stored!.privateJwk as JWK, 'EdDSA')) as CryptoKey };
  const member = await ownerCreateMember(t, { loginEmail: uniqueEmail('tok') });
  // A real token family: member tokens stand only while their family's refresh token is unrevoked.
  const { familyId } = await issueTokenPair(serviceContext(t), { siteId: t.site.id, clientId: t.clientId, role: 'member', subjectId: member.id });
  claims = { sub: member.id, sid: t.site.id, cid: t.clientId, role: 'member', fam: familyId };
}, SLOW_START_MS);
afterAll(() => t?.close());

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

async function signWithServerKey(payload: JWTPayload, opts: { iss?: string; aud?: string; exp?: number; kid?: string } = {}): Promise<string> {
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'EdDSA', kid: opts.kid ?? serverKey.kid, typ: 'JWT' })
    .setIssuer(opts.iss ?? TOKEN_ISSUER)
    .setAudience(opts.aud ?? TOKEN_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(opts.exp ?? Math.floor(Date.now() / 1000) + 600)
    .sign(serverKey.key);
}

async function expectUnauthenticated(token: string): Promise<void> {
  const res = await call(t.url, ME, { auth: token });
  expect({ status: res.status, code: res.body?.details?.applicationError?.code }).toEqual({ status: 401, code: 'UNAUTHENTICATED' });
  expect(JSON.stringify(res.body)).not.toMatch(/jose|JWS|JWT|signature verification/i);
}

describe('access tokens (9.1.x, 9.2.x)', () => {
  it('a correctly signed member token is accepted (control for the refusals below)', async () => {
    const res = await call(t.url, ME, { auth: await signWithServerKey(claims) });
    expect(res.status).toBe(200);
    expect(res.body.member.id).toBe(claims.sub);
  });

  it('refuses alg none, with and without a signature part', async () => {
    const body = b64({ ...claims, iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE, exp: Math.floor(Date.now() / 1000) + 600 });
    for (const alg of ['none', 'None', 'NONE']) {
      await expectUnauthenticated(`${b64({ alg, typ: 'JWT', kid: serverKey.kid })}.${body}.`);
      await expectUnauthenticated(`${b64({ alg, typ: 'JWT', kid: serverKey.kid })}.${body}.AAAA`);
    }
  });

  it('refuses HS256 keyed with the published public key (algorithm confusion)', async () => {
    const jwks = (await call(t.url, '/oauth2/jwks')).body.keys as JWK[];
    const published = jwks.find((k) => k.kid === serverKey.kid)!;
    for (const secret of [JSON.stringify(published), published.x!, Buffer.from(published.x!, 'base64url').toString('latin1')]) {
      const token = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: serverKey.kid, typ: 'JWT' })
        .setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE).setIssuedAt().setExpirationTime('10m')
        .sign(new TextEncoder().encode(secret));
      await expectUnauthenticated(token);
    }
  });

  it('refuses keys supplied by the token header: jwk, jku, x5u, and unknown or injected kid values', async () => {
    const attacker = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    const attackerJwk = await exportJWK(attacker.publicKey);
    const forge = (header: Record<string, unknown>) => new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT', ...header })
      .setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE).setIssuedAt().setExpirationTime('10m')
      .sign(attacker.privateKey);
    await expectUnauthenticated(await forge({ jwk: attackerJwk }));
    await expectUnauthenticated(await forge({ jwk: attackerJwk, kid: 'attacker' }));
    await expectUnauthenticated(await forge({ kid: serverKey.kid, jwk: attackerJwk }));
    await expectUnauthenticated(await forge({ jku: `${t.url}/oauth2/jwks`, kid: 'attacker' }));
    await expectUnauthenticated(await forge({ x5u: 'https://attacker.example/cert.pem', kid: 'attacker' }));
    for (const kid of ["' OR '1'='1", '../../../../etc/passwd', `${serverKey.kid}' --`, 'x'.repeat(5000)]) {
      await expectUnauthenticated(await forge({ kid }));
    }
    // The attacker's key under the server's kid: the signature is checked with the server's key.
    await expectUnauthenticated(await forge({ kid: serverKey.kid }));
  });

  it('refuses a wrong audience, a wrong issuer, and an expired token', async () => {
    await expectUnauthenticated(await signWithServerKey(claims, { aud: 'another-api' }));
    await expectUnauthenticated(await signWithServerKey(claims, { iss: 'someone-else' }));
    await expectUnauthenticated(await signWithServerKey(claims, { exp: Math.floor(Date.now() / 1000) - 120 }));
  });

  it('refuses a server-signed token without an expiry (exp is required, not only checked when present)', async () => {
    const noExp = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', kid: serverKey.kid, typ: 'JWT' })
      .setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE).setIssuedAt()
      .sign(serverKey.key);
    await expectUnauthenticated(noExp);
  });

  it('a server-signed token naming an unknown site is refused', async () => {
    await expectUnauthenticated(await signWithServerKey({ ...claims, sid: randomUUID() }));
  });
});

describe('token entropy (9.1.x, 7.2.3)', () => {
  it('refresh tokens carry at least 128 random bits and never repeat', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20; i += 1) {
      const { refreshToken, accessToken } = await visitorTokens(t);
      const secret = refreshToken.replace(/^rt_/, '');
      expect(Buffer.from(secret, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
      expect(seen.has(refreshToken)).toBe(false);
      seen.add(refreshToken);
      const payload = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as JWTPayload;
      expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe('refresh tokens: absolute lifetime (10.4.8)', () => {
  it('a refresh token past its expiry is refused, though never revoked and recently used', async () => {
    const member = await ownerCreateMember(t, { loginEmail: uniqueEmail('life') });
    const pair = await memberTokenPair(t, member.id);
    const refresh = () => call(t.url, '/oauth2/token', { body: { clientId: t.clientId, grantType: 'refresh_token', refreshToken: pair.refreshToken } });
    expect((await refresh()).status).toBe(200);
    const db = t.server.deps.storage.db;
    const row = await db.selectFrom('refresh_tokens').select(['created_date', 'expires_date']).where('subject_id', '=', member.id).executeTakeFirstOrThrow();
    // The lifetime is fixed at issue (config refreshTokenTtlDays), not extended by use.
    expect(Date.parse(row.expires_date) - Date.parse(row.created_date)).toBe(t.config.refreshTokenTtlDays * 24 * 3600 * 1000);
    expect((await refresh()).status).toBe(200);
    const after = await db.selectFrom('refresh_tokens').select(['expires_date']).where('subject_id', '=', member.id).executeTakeFirstOrThrow();
    expect(after.expires_date).toBe(row.expires_date);

    await db.updateTable('refresh_tokens').set({ expires_date: new Date(Date.now() - 1000).toISOString() }).where('subject_id', '=', member.id).execute();
    const expired = await refresh();
    expect({ status: expired.status, code: expired.body.details.applicationError.code }).toEqual({ status: 400, code: 'INVALID_GRANT' });
  });

  it('a server configured with a 0-day lifetime issues refresh tokens that are already unusable', async () => {
    const short = await startTestServer({ refreshTokenTtlDays: 0 });
    try {
      const res = await call(short.url, '/oauth2/token', { body: { clientId: short.clientId, grantType: 'anonymous' } });
      expect(res.status).toBe(200);
      const again = await call(short.url, '/oauth2/token', { body: { clientId: short.clientId, grantType: 'refresh_token', refreshToken: res.body.refresh_token } });
      expect(again.status).toBe(400);
      expect(again.body.details.applicationError.code).toBe('INVALID_GRANT');
    } finally {
      await short.close();
    }
  }, SLOW_START_MS);
});
