import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { BaseContext } from '../../http/context.js';
import { ApplicationError } from '../../http/errors.js';
import { markCaptchaUsed, readOrCreateSecret } from './store.js';

/**
 * Self-hosted proof-of-work captcha (ALTCHA-compatible). The server hands out
 * `{algorithm, challenge, salt, signature, maxnumber}`; the client finds `number` with
 * SHA-256(salt + number) = challenge and sends back base64(JSON {algorithm, challenge, number, salt,
 * signature}). The server checks the HMAC, the hash and the expiry in the salt, and accepts each
 * solution once (replays are refused).
 */
export const CAPTCHA_TTL_SECONDS = 10 * 60;
/** Work factor: the client tries on average maxnumber/2 hashes (well under a second in a browser). */
export const CAPTCHA_MAX_NUMBER = { invisible: 50_000, visible: 100_000 } as const;
const MAX_TOKEN_LENGTH = 5_000;

export const MISSING_CAPTCHA = '-19971';
export const INVALID_CAPTCHA = '-19970';

export type CaptchaMode = 'invisible' | 'visible';

export interface CaptchaChallenge { algorithm: 'SHA-256'; challenge: string; salt: string; signature: string; maxnumber: number }

/**
 * The HMAC key per database handle, once read. Only a key read is kept: a read that failed (the
 * database restarting) is made again by the next challenge, where keeping its rejected promise
 * refused every captcha until the process restarted.
 */
const hmacKeys = new WeakMap<object, string>();
async function keyOf(ctx: BaseContext): Promise<string> {
  const db = ctx.deps.storage.db;
  const kept = hmacKeys.get(db);
  if (kept !== undefined) return kept;
  const key = await readOrCreateSecret(db, 'captcha_hmac', randomBytes(32).toString('hex'));
  hmacKeys.set(db, key);
  return key;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export async function createChallenge(ctx: BaseContext, mode: CaptchaMode): Promise<CaptchaChallenge> {
  const maxnumber = CAPTCHA_MAX_NUMBER[mode];
  const expires = Math.floor(Date.now() / 1000) + CAPTCHA_TTL_SECONDS;
  const salt = `${randomBytes(12).toString('hex')}?expires=${expires}`;
  const number = randomBytes(4).readUInt32BE(0) % (maxnumber + 1);
  const challenge = sha256(salt + number);
  const signature = createHmac('sha256', await keyOf(ctx)).update(challenge).digest('hex');
  return { algorithm: 'SHA-256', challenge, salt, signature, maxnumber };
}

/** Solves a challenge (tests and the hosted pages' fallback use the same algorithm as the browser widget). */
export function solveChallenge(c: CaptchaChallenge): string {
  for (let n = 0; n <= c.maxnumber; n++) {
    if (sha256(c.salt + n) === c.challenge) {
      return Buffer.from(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: n, salt: c.salt, signature: c.signature })).toString('base64');
    }
  }
  throw new Error('unsolvable challenge');
}

export const missingCaptcha = (mode: CaptchaMode) =>
  new ApplicationError(400, MISSING_CAPTCHA, 'A captcha token is required', { captchaMode: mode, challengePath: `/_api/iam/captcha/v1/challenge?mode=${mode}` });
const invalidCaptcha = () => new ApplicationError(400, INVALID_CAPTCHA, 'The captcha token is invalid');

function equalHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Throws -19971 when no token came, -19970 when it is bad, expired or replayed. */
export async function verifyCaptcha(ctx: BaseContext, mode: CaptchaMode, token: string | undefined): Promise<void> {
  if (!token) throw missingCaptcha(mode);
  if (token.length > MAX_TOKEN_LENGTH) throw invalidCaptcha();
  let payload: { algorithm?: unknown; challenge?: unknown; number?: unknown; salt?: unknown; signature?: unknown };
  try {
    payload = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as typeof payload;
  } catch {
    throw invalidCaptcha();
  }
  const { algorithm, challenge, number, salt, signature } = payload ?? {};
  if (algorithm !== 'SHA-256' || typeof challenge !== 'string' || typeof salt !== 'string' || typeof signature !== 'string'
    || typeof number !== 'number' || !Number.isInteger(number) || number < 0) throw invalidCaptcha();
  const expires = Number(new URLSearchParams(salt.split('?')[1] ?? '').get('expires'));
  if (!Number.isFinite(expires) || expires * 1000 < Date.now()) throw invalidCaptcha();
  const expected = createHmac('sha256', await keyOf(ctx)).update(challenge).digest('hex');
  if (!equalHex(expected, signature) || !equalHex(sha256(salt + number), challenge)) throw invalidCaptcha();
  const fresh = await markCaptchaUsed(ctx.db, signature, new Date(expires * 1000).toISOString(), new Date().toISOString());
  if (!fresh) throw invalidCaptcha();
}

/** The token from the public client's `captchaTokens: [{Recaptcha | InvisibleRecaptcha | NoCaptcha}]`. */
export function captchaTokenOf(tokens: { Recaptcha?: string | undefined; InvisibleRecaptcha?: string | undefined; NoCaptcha?: string | undefined }[] | undefined): string | undefined {
  for (const t of tokens ?? []) {
    const value = t.NoCaptcha ?? t.Recaptcha ?? t.InvisibleRecaptcha;
    if (value) return value;
  }
  return undefined;
}
