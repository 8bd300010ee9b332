import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

/**
 * Every answer carries the request frame's headers (request id, CORS), whether the API built it with
 * them (JSON answers, errors) or something else did and they were added afterwards (raw routes).
 */
let t: TestServer;
const SHOP = 'https://shop.example';

beforeAll(async () => {
  t = await startTestServer({ corsOrigins: [SHOP] });
});
afterAll(() => t?.close());

const EXPOSED = 'x-wix-request-id,X-Wix-Consistent,Idempotent-Replayed';
const get = (path: string, origin?: string) => fetch(new URL(path, t.url), { headers: origin ? { origin } : {} });

describe('response frame with a list of allowed origins', () => {
  it('gives an allowed origin its CORS headers on a JSON answer, varying on Origin', async () => {
    const res = await get('/healthz', SHOP);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(res.headers.get('access-control-expose-headers')).toBe(EXPOSED);
    expect(res.headers.get('vary')).toBe('Origin');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-wix-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives another origin no allow-origin header, on errors too', async () => {
    const res = await get('/nope/v1/things', 'https://evil.example');
    expect(res.status).toBe(404);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('vary')).toBe('Origin');
    expect(res.headers.get('x-wix-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((await res.json()).details.applicationError.code).toBe('NOT_FOUND');
  });

  it('adds the frame to answers a raw route built, keeping their own headers', async () => {
    const res = await get('/docs', SHOP);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(res.headers.get('vary')).toBe('Origin');
    expect(res.headers.get('x-wix-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a preflight from an allowed origin with the allowed methods and headers', async () => {
    const res = await fetch(new URL('/stores-reader/v1/products/query', t.url), {
      method: 'OPTIONS', headers: { origin: SHOP, 'access-control-request-method': 'POST' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET,POST,PATCH,PUT,DELETE,OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toBe('Authorization,Content-Type,wix-site-id,wix-account-id,x-wix-bi-gateway,X-Wix-Consistent,Idempotency-Key');
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(res.headers.get('x-wix-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await res.text()).toBe('');
  });

  it('gives each request its own id', async () => {
    const [a, b] = await Promise.all([get('/healthz'), get('/healthz')]);
    expect(a.headers.get('x-wix-request-id')).not.toBe(b.headers.get('x-wix-request-id'));
  });
});
