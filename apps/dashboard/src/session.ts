import { createClient, VitrineError, type ClientCore } from '@vitrine/sdk';
import { account } from '@vitrine/sdk/owners';

/** The session token lives in sessionStorage only: closing the tab forgets it (the server session ends on its own). */
const STORAGE_KEY = 'vitrine.dashboard.session';

/** A signed-in owner or staff session: the token from password sign-in and its site. */
export interface OwnerSession { sessionToken: string; siteId: string }

export function loadSession(): OwnerSession | undefined {
  const raw = sessionStorage.getItem(STORAGE_KEY);
  if (!raw) return undefined;
  try {
    const parsed = JSON.parse(raw) as Partial<OwnerSession>;
    return parsed.sessionToken && parsed.siteId ? { sessionToken: parsed.sessionToken, siteId: parsed.siteId } : undefined;
  } catch {
    return undefined;
  }
}

export function saveSession(session: OwnerSession | undefined): void {
  if (session) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  else sessionStorage.removeItem(STORAGE_KEY);
}

/** A client with no credentials (password sign-in) against the server that serves the dashboard. */
export function anonymousClient(): ClientCore {
  return createClient({ host: window.location.origin });
}

/** The SDK client of a signed-in session: the token is sent like an API key. */
export function ownerClient(session: OwnerSession): ClientCore {
  return createClient({ auth: account.ownerSessionAuth(session), host: window.location.origin });
}

/** One field violation of a refused call, as the server words it. */
export interface Violation { field: string; description: string }
/** A form's own wording of a violation in its terms ("Stock of Size: M: must be at most ..."), or undefined to keep the server's. */
export type DescribeViolation = (violation: Violation) => string | undefined;

/**
 * What the dashboard shows for a failed call, in the server's own words: each field violation
 * ("product.name: must not be empty") unless the form words it with its own labels (`describe`),
 * else the application error's description without the SDK's "CODE:" / status prefixes, else the message.
 */
export function errorText(error: unknown, describe?: DescribeViolation): string {
  if (error instanceof VitrineError && error.details) {
    if ('validationError' in error.details) {
      const violations = error.details.validationError.fieldViolations;
      if (violations.length > 0) return violations.map((v) => describe?.(v) ?? `${v.field}: ${v.description}`).join('; ');
    }
    if ('applicationError' in error.details && error.details.applicationError.description) return error.details.applicationError.description;
  }
  if (error instanceof VitrineError && error.kind === 'system') return 'The server failed to answer. Try again; if it keeps failing, check the server log.';
  return error instanceof Error ? error.message : String(error);
}

/** Event App listens to when a call was refused with 401 (session ended, revoked or expired). */
export const UNAUTHORIZED_EVENT = 'vitrine:unauthorized';

/**
 * The 401 a signed-in owner gets for a wrong password typed into a form (change password): the
 * session is still good, so it must not end it. An ended session answers `UNAUTHENTICATED`.
 */
export const WRONG_PASSWORD_CODE = 'INVALID_CREDENTIALS';

export function isWrongPassword(error: unknown): boolean {
  return error instanceof VitrineError && error.status === 401 && error.code === WRONG_PASSWORD_CODE;
}

export function reportUnauthorized(error: unknown): void {
  if (error instanceof VitrineError && error.status === 401 && !isWrongPassword(error)) window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
}
