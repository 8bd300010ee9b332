import { expect } from 'vitest';
import { asOwner, call, type ApiResponse, type TestServer } from './harness.js';

/** Helpers for the data-collection tests. */

export type Auth = { auth: string; siteId?: string };

export function ownerAuth(t: TestServer): Auth {
  return asOwner(t) as Auth;
}

export async function dataCall(t: TestServer, auth: Auth, path: string, body: unknown, method = 'POST'): Promise<ApiResponse> {
  return call(t.url, `/wix-data/v2${path}`, { ...auth, method, body });
}

/** Calls and expects 200, returning the body. */
export async function ok(t: TestServer, auth: Auth, path: string, body: unknown, method = 'POST'): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  const res = await dataCall(t, auth, path, body, method);
  if (res.status !== 200) throw new Error(`${method} ${path} -> ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function createCollection(t: TestServer, id: string, extra: Record<string, unknown> = {}): Promise<void> {
  await ok(t, ownerAuth(t), '/collections', { collection: { id, displayName: id, fields: [], permissions: { read: 'ANYONE', insert: 'ANYONE', update: 'ANYONE', remove: 'ANYONE' }, ...extra } });
}

export function expectAppError(res: ApiResponse, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.details?.applicationError?.code }).toEqual({ status, code });
}

export function expectViolation(res: ApiResponse, field: string): void {
  expect(res.status).toBe(400);
  expect(res.body.details.validationError.fieldViolations.map((v: { field: string }) => v.field)).toContain(field);
}

export const d = (iso: string) => ({ $date: new Date(iso).toISOString() });
