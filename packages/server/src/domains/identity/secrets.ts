import { createHash, randomBytes } from 'node:crypto';

/** A CSPRNG token of 256 bits, base64url. */
export function randomToken(prefix = ''): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** Tokens and keys are high-entropy, so a plain SHA-256 is the right storage hash (no salt/stretching needed). */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}
