import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Opaque paging cursors (docs/api.md "Paging": opaque, tamper-proof, bound to the site):
 * base64url(JSON envelope) + "." + HMAC-SHA256. The envelope names the site, the kind of listing it
 * continues and when it was issued; the listing's own state (filter, sort, offset...) rides inside, so
 * a cursor request carries only the cursor. Each domain keeps its own key (in its own table) and
 * maps a refused cursor to its own wire error.
 */

/** Cursors older than this are refused (a result set drifts; callers start over). */
export const CURSOR_TTL_MS = 24 * 60 * 60 * 1000;
/** Longest cursor even looked at. */
export const CURSOR_MAX_LENGTH = 16_000;

interface Envelope<T> { site: string; kind: string; iat: number; state: T }

export function signCursor<T>(key: Buffer, siteId: string, kind: string, state: T): string {
  const body = Buffer.from(JSON.stringify({ site: siteId, kind, iat: Date.now(), state } satisfies Envelope<T>)).toString('base64url');
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
}

/** The state of a cursor issued with `key` for this site and kind, or undefined for anything else. */
export function openCursor<T>(key: Buffer, siteId: string, kind: string, cursor: string): T | undefined {
  if (cursor.length > CURSOR_MAX_LENGTH) return undefined;
  const [body, mac, extra] = cursor.split('.');
  if (!body || !mac || extra !== undefined) return undefined;
  const expected = createHmac('sha256', key).update(body).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let envelope: Envelope<T>;
  try {
    envelope = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Envelope<T>;
  } catch {
    return undefined;
  }
  if (envelope.site !== siteId || envelope.kind !== kind || !(Date.now() - envelope.iat <= CURSOR_TTL_MS)) return undefined;
  return envelope.state;
}
