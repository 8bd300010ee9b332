import { ApiKeyStrategy, createClient } from '@vitrine/sdk';
import { products } from '@vitrine/sdk/stores';

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

export function ownerClient(session: OwnerSession) {
  return createClient({
    modules: { products },
    auth: ApiKeyStrategy({ apiKey: session.apiKey, siteId: session.siteId }),
    host: window.location.origin,
  });
}

export type OwnerClient = ReturnType<typeof ownerClient>;

/** Raw owner call for routes the SDK has no module for (wire errors are JSON with a message). */
export async function ownerFetch<T>(session: OwnerSession, path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { authorization: session.apiKey, 'wix-site-id': session.siteId, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  const json = text ? (JSON.parse(text) as unknown) : {};
  if (!res.ok) throw new Error((json as { message?: string }).message ?? `${res.status} ${res.statusText}`);
  return json as T;
}
