import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type JWK, type JWTPayload, type CryptoKey as JoseKey } from 'jose';
import { LruMap } from '../../lru-map.js';
import type { Executor } from '../../storage/database.js';
import { insertSigningKey, listSigningKeys } from './store.js';

/** The only algorithm we sign with and accept; `none` and anything else is refused. */
const ALG = 'EdDSA';
export const TOKEN_ISSUER = 'vitrine';
export const TOKEN_AUDIENCE = 'vitrine-api';
/** A new signing key is made when the newest is older than this; older keys still verify. */
const ROTATE_AFTER_MS = 30 * 24 * 3600 * 1000;
/** Keys are kept for verification for this long after they stop signing (longer than any access token). */
const VERIFY_GRACE_MS = 2 * 24 * 3600 * 1000;

const RELOAD_MIN_INTERVAL_MS = 10_000;
/** Verified access tokens remembered per process (oldest dropped first). */
const VERIFIED_CACHE_MAX = 10_000;

interface LoadedKey { kid: string; createdAt: number; privateKey: JoseKey; publicKey: JoseKey; publicJwk: JWK }

/** Access-token signing keys, kept in the database so every server process signs and verifies alike. */
export class SigningKeys {
  private keys = new Map<string, LoadedKey>();
  private current: LoadedKey | undefined;
  private lastReload = 0;
  private readonly verified = new LruMap<string, JWTPayload>(VERIFIED_CACHE_MAX);

  constructor(private readonly db: Executor) {}

  /** Loads the keys, making a new one when there is none or the newest is due for rotation. */
  async load(): Promise<void> {
    let stored = await listSigningKeys(this.db);
    const newest = stored[0];
    if (!newest || Date.now() - Date.parse(newest.createdDate) > ROTATE_AFTER_MS) {
      const { privateKey, publicKey } = await generateKeyPair(ALG, { crv: 'Ed25519', extractable: true });
      const kid = randomUUID();
      await insertSigningKey(this.db, {
        kid,
        alg: ALG,
        privateJwk: { ...(await exportJWK(privateKey)) },
        publicJwk: { ...(await exportJWK(publicKey)), kid, alg: ALG, use: 'sig' },
        createdDate: new Date().toISOString(),
      });
      stored = await listSigningKeys(this.db);
    }
    const keys = new Map<string, LoadedKey>();
    for (const key of stored) {
      const createdAt = Date.parse(key.createdDate);
      if (Date.now() - createdAt > ROTATE_AFTER_MS + VERIFY_GRACE_MS && key !== stored[0]) continue;
      keys.set(key.kid, {
        kid: key.kid,
        createdAt,
        privateKey: (await importJWK(key.privateJwk as JWK, ALG)) as JoseKey,
        publicKey: (await importJWK(key.publicJwk as JWK, ALG)) as JoseKey,
        publicJwk: key.publicJwk as JWK,
      });
    }
    this.keys = keys;
    this.current = keys.get(stored[0]!.kid);
  }

  async sign(claims: JWTPayload & { sub: string }, ttlSeconds: number): Promise<string> {
    const key = this.current;
    if (!key) throw new Error('Signing keys not loaded');
    return new SignJWT(claims)
      .setProtectedHeader({ alg: ALG, kid: key.kid, typ: 'JWT' })
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt()
      .setJti(randomUUID())
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(key.privateKey);
  }

  /**
   * Verifies signature, algorithm, issuer, audience and expiry; throws on any failure. A token that
   * verified once is remembered until it expires (a client sends the same token on every call, and the
   * signature check is a large share of a cheap read); any other string, a tampered copy included,
   * is verified in full.
   */
  async verify(token: string): Promise<JWTPayload> {
    const known = this.verified.get(token);
    if (known && (known.exp ?? 0) * 1000 > Date.now()) return known;
    const payload = await this.verifySignature(token);
    this.verified.set(token, payload);
    return payload;
  }

  private async verifySignature(token: string): Promise<JWTPayload> {
    const { payload } = await jwtVerify(
      token,
      async (header) => {
        const kid = header.kid;
        if (!kid) throw new Error('token has no key id');
        let key = this.keys.get(kid);
        if (!key && Date.now() - this.lastReload > RELOAD_MIN_INTERVAL_MS) {
          // Another process may have rotated; reload, but not on every forged kid.
          this.lastReload = Date.now();
          await this.load();
          key = this.keys.get(kid);
        }
        if (!key) throw new Error('unknown key id');
        return key.publicKey;
      },
      { algorithms: [ALG], issuer: TOKEN_ISSUER, audience: TOKEN_AUDIENCE, requiredClaims: ['exp', 'iat', 'sub', 'sid'] },
    );
    return payload;
  }

  jwks(): { keys: JWK[] } {
    return { keys: [...this.keys.values()].map((k) => k.publicJwk) };
  }
}
