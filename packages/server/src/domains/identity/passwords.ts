import { hash, verify } from '@node-rs/argon2';
import { COMMON_PASSWORDS } from './common-passwords.js';

/** ASVS 6.2.1: at least 8 characters. */
export const PASSWORD_MIN_LENGTH = 8;
/**
 * Upper bound that keeps argon2 work bounded per request; well above the 64 characters ASVS 6.2.9
 * asks us to accept. Nothing is truncated below it.
 */
export const PASSWORD_MAX_LENGTH = 256;

/** argon2id parameters (OWASP password storage: m=19 MiB, t=2, p=1). */
// `algorithm: 2` is Argon2id (the package's const enum cannot be imported under verbatimModuleSyntax).
const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export type PasswordProblem = 'TOO_SHORT' | 'TOO_LONG' | 'TOO_COMMON';

const SEQUENCES = ['0123456789', 'abcdefghijklmnopqrstuvwxyz', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm', '1qaz2wsx3edc', 'qazwsxedc'];

/**
 * Common-password check: the shipped list (exact, case-insensitive), plus the shapes that dominate
 * breached-password lists and are cheap to recognise: one repeated character, a run of a keyboard or
 * alphabet sequence, and a listed word followed by digits and/or punctuation ("password123!").
 */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lower)) return true;
  if (/^(.)\1*$/u.test(lower)) return true;
  for (const seq of SEQUENCES) {
    const reversed = [...seq].reverse().join('');
    if (seq.includes(lower) || reversed.includes(lower)) return true;
  }
  const stem = lower.replace(/[\d!@#$%^&*.?_-]+$/u, '');
  if (stem !== lower && stem.length >= 3 && COMMON_PASSWORDS.has(stem)) return true;
  return false;
}

/** The reason a new password is refused, or undefined. Length counts code points; nothing is folded or cut. */
export function passwordProblem(password: string): PasswordProblem | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return 'TOO_SHORT';
  if (length > PASSWORD_MAX_LENGTH) return 'TOO_LONG';
  if (isCommonPassword(password)) return 'TOO_COMMON';
  return undefined;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same argon2 work as a real check, for unknown e-mails, so the answer time does not tell
 * whether an account exists (ASVS 6.3.8).
 */
export async function verifyDummyPassword(password: string): Promise<void> {
  dummyHash ??= hashPassword('dummy password for timing equality');
  await verifyPassword(await dummyHash, password);
}
