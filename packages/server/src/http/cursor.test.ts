import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CURSOR_MAX_LENGTH, CURSOR_TTL_MS, openCursor, signCursor } from './cursor.js';

const key = randomBytes(32);
const state = { filter: { brand: 'Brewline' }, offset: 20, limit: 10 };

afterEach(() => { vi.useRealTimers(); });

describe('signed cursors', () => {
  it('opens what it signed, for the same site and kind only', () => {
    const cursor = signCursor(key, 'site-a', 'products.query', state);
    expect(openCursor(key, 'site-a', 'products.query', cursor)).toEqual(state);
    expect(openCursor(key, 'site-b', 'products.query', cursor)).toBeUndefined();
    expect(openCursor(key, 'site-a', 'members.query', cursor)).toBeUndefined();
    expect(openCursor(randomBytes(32), 'site-a', 'products.query', cursor)).toBeUndefined();
  });

  it('refuses a tampered body or signature, extra parts and oversized input', () => {
    const cursor = signCursor(key, 'site-a', 'k', state);
    const [body, mac] = cursor.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), state: { ...state, offset: 0 } })).toString('base64url');
    expect(openCursor(key, 'site-a', 'k', `${forged}.${mac}`)).toBeUndefined();
    expect(openCursor(key, 'site-a', 'k', `${body}.${mac.slice(0, -2)}AA`)).toBeUndefined();
    expect(openCursor(key, 'site-a', 'k', `${cursor}.x`)).toBeUndefined();
    expect(openCursor(key, 'site-a', 'k', 'x'.repeat(CURSOR_MAX_LENGTH + 1))).toBeUndefined();
    expect(openCursor(key, 'site-a', 'k', 'not-a-cursor')).toBeUndefined();
  });

  it('expires after CURSOR_TTL_MS', () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    const cursor = signCursor(key, 'site-a', 'k', state);
    vi.setSystemTime(Date.now() + CURSOR_TTL_MS);
    expect(openCursor(key, 'site-a', 'k', cursor)).toEqual(state);
    vi.setSystemTime(Date.now() + 1);
    expect(openCursor(key, 'site-a', 'k', cursor)).toBeUndefined();
  });
});
