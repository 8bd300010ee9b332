import type { Tokens } from './tokens.js';

/**
 * Keeping tokens across page loads, and one token refresh at a time across tabs:
 * `OAuthStrategy({ clientId, storage: localStorageTokens() })`.
 */
export interface TokenStorage {
  load(): Tokens | undefined;
  save(tokens: Tokens): void;
  clear(): void;
}

function parse(text: string | null | undefined): Tokens | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Tokens;
    return value && typeof value.accessToken?.value === 'string' && typeof value.refreshToken?.value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

export const DEFAULT_TOKEN_KEY = 'vitrine-tokens';

export function localStorageTokens(key = DEFAULT_TOKEN_KEY, storage: Storage = globalThis.localStorage): TokenStorage {
  return {
    load: () => parse(storage.getItem(key)),
    save: (tokens) => storage.setItem(key, JSON.stringify(tokens)),
    clear: () => storage.removeItem(key),
  };
}

export interface CookieOptions {
  name?: string;
  /** Default `/` (the site root, spec section 9). */
  path?: string;
  /** Lifetime in days; default 14. */
  expiryDays?: number;
  secure?: boolean;
  sameSite?: 'Lax' | 'Strict' | 'None';
}

/** Tokens in a first-party cookie (readable by server rendering); default path `/`, expiry in days. */
export function cookieTokens(options: CookieOptions = {}, doc: Pick<Document, 'cookie'> = globalThis.document): TokenStorage {
  const name = options.name ?? DEFAULT_TOKEN_KEY;
  const path = options.path ?? '/';
  const days = options.expiryDays ?? 14;
  const attrs = (maxAge: number) => `; Path=${path}; Max-Age=${maxAge}; SameSite=${options.sameSite ?? 'Lax'}${options.secure ?? true ? '; Secure' : ''}`;
  return {
    load() {
      for (const part of doc.cookie.split(';')) {
        const [k, ...v] = part.trim().split('=');
        if (k === name) return parse(decodeURIComponent(v.join('=')));
      }
      return undefined;
    },
    save: (tokens) => {
      doc.cookie = `${name}=${encodeURIComponent(JSON.stringify(tokens))}${attrs(Math.round(days * 24 * 3600))}`;
    },
    clear: () => {
      doc.cookie = `${name}=${attrs(0)}`;
    },
  };
}

/**
 * Runs `fn` while holding a cross-tab lock (Web Locks API) so two tabs do not refresh or log in at
 * once; where `navigator.locks` is missing (Node, old browsers) it just runs `fn`.
 */
export async function withTokenLock<T>(fn: () => Promise<T>, name = 'vitrine-token-refresh'): Promise<T> {
  const locks = (globalThis.navigator as (Navigator & { locks?: LockManager }) | undefined)?.locks;
  if (!locks?.request) return fn();
  return locks.request(name, { mode: 'exclusive' }, () => fn()) as Promise<T>;
}
