import { ApiKeyStrategy, createClient, VitrineError, type ClientCore } from '@vitrine/sdk';

/** The owner's credentials live in sessionStorage only: closing the tab signs out. */
const STORAGE_KEY = 'vitrine.dashboard.session';

export interface OwnerSession { apiKey: string; siteId: string }

export function loadSession(): OwnerSession | undefined {
  const raw = sessionStorage.getItem(STORAGE_KEY);
  if (!raw) return undefined;
  try {
    const parsed = JSON.parse(raw) as Partial<OwnerSession>;
    return parsed.apiKey && parsed.siteId ? { apiKey: parsed.apiKey, siteId: parsed.siteId } : undefined;
  } catch {
    return undefined;
  }
}

export function saveSession(session: OwnerSession | undefined): void {
  if (session) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  else sessionStorage.removeItem(STORAGE_KEY);
}

/** The SDK client of a signed-in owner: API-key auth against the server that serves the dashboard. */
export function ownerClient(session: OwnerSession): ClientCore {
  return createClient({ auth: ApiKeyStrategy({ apiKey: session.apiKey, siteId: session.siteId }), host: window.location.origin });
}

/**
 * What the dashboard shows for a failed call: each field violation ("product.name: must not be
 * empty"; an owner fixes fields, the SDK's INVALID_ARGUMENT summary is for logs), else the message.
 */
export function errorText(error: unknown): string {
  if (error instanceof VitrineError && error.details && 'validationError' in error.details) {
    const violations = error.details.validationError.fieldViolations;
    if (violations.length > 0) return violations.map((v) => `${v.field}: ${v.description}`).join('; ');
  }
  return error instanceof Error ? error.message : String(error);
}

/** Event App listens to when a call was refused with 401 (revoked or deleted API key). */
export const UNAUTHORIZED_EVENT = 'vitrine:unauthorized';

export function reportUnauthorized(error: unknown): void {
  if (error instanceof VitrineError && error.status === 401) window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
}
