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

interface WireError {
  message?: string;
  details?: {
    validationError?: { fieldViolations?: { field?: string; description?: string }[] };
    applicationError?: { code?: string; description?: string };
  };
}

/** A wire error: the message plus each field violation ("product.name: must not be empty"). */
export class ApiError extends Error {
  constructor(readonly status: number, readonly body: WireError) {
    const violations = body.details?.validationError?.fieldViolations ?? [];
    const text = violations.length > 0
      ? violations.map((v) => `${v.field ?? ''}: ${v.description ?? ''}`).join('; ')
      : body.message ?? `HTTP ${status}`;
    super(text);
  }
}

/** GET payloads travel as one base64url `.r` parameter (contracts/wire.md), so nested objects keep their types. */
export function dotR(query: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(query));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export interface FetchOptions { method?: string; body?: unknown; query?: Record<string, unknown> }

/** Raw owner call for routes the SDK has no module for (wire errors become ApiError). */
export async function ownerFetch<T>(session: OwnerSession, path: string, init: FetchOptions = {}): Promise<T> {
  const url = init.query ? `${path}?.r=${dotR(init.query)}` : path;
  const res = await fetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { authorization: session.apiKey, 'wix-site-id': session.siteId, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let json: unknown = {};
  try {
    json = text ? (JSON.parse(text) as unknown) : {};
  } catch {
    json = { message: text };
  }
  if (!res.ok) throw new ApiError(res.status, json as WireError);
  return json as T;
}

/** Event App listens to when a call was refused with 401 (revoked or deleted API key). */
export const UNAUTHORIZED_EVENT = 'vitrine:unauthorized';

export function reportUnauthorized(error: unknown): void {
  if (error instanceof ApiError && error.status === 401) window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
}
