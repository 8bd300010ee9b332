/**
 * Data items travel with their own field names (`_id`, `_owner`, ... stay as they are, also in
 * filters) and every date as `{"$date": "<ISO>"}` in both directions (docs/api.md "Data items").
 */
import type { ClientCore, HttpMethod } from '../../client.js';
import { VitrineError } from '../../errors.js';

export function encodeDates(value: unknown): unknown {
  if (value instanceof Date) return { $date: value.toISOString() };
  if (Array.isArray(value)) return value.map(encodeDates);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = encodeDates(v);
    return out;
  }
  return value;
}

export function decodeDates(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeDates);
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj);
    if (keys.length === 1 && keys[0] === '$date' && typeof obj.$date === 'string') {
      const date = new Date(obj.$date);
      if (!Number.isNaN(date.getTime())) return date;
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) out[k] = decodeDates(v);
    return out;
  }
  return value;
}

/** Data queries go as GET `?.r=` only while the whole URL fits in this many characters (spec section 9). */
export const DATA_GET_URL_MAX = 2048;

function base64url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

/** One data call: dates encoded, names untouched, 413 reported as WDE0109, dates decoded. */
export async function dataRequest<T>(client: ClientCore, method: HttpMethod, path: string, payload: Record<string, unknown>, getIfShort = false): Promise<T> {
  const encoded = encodeDates(payload) as Record<string, unknown>;
  let actual = method;
  if (getIfShort) {
    const url = `${client.host.replace(/\/+$/, '')}${path}?.r=${base64url(JSON.stringify(encoded))}`;
    actual = url.length <= DATA_GET_URL_MAX ? 'GET' : 'POST';
  }
  try {
    const res = await client.request<unknown>({ method: actual, path, payload: encoded, preserve: [''], decode: { preserve: [''] } });
    return decodeDates(res) as T;
  } catch (error) {
    if (error instanceof VitrineError && error.status === 413) {
      throw new VitrineError('Payload is too large', 'application', 'WDE0109', 413, error.requestId, error.details);
    }
    throw error;
  }
}
