import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/test/harness.js';
import { ApiKeyStrategy, createClient, OAuthStrategy, VitrineError } from '../src/index.js';
import { errorFromResponse } from '../src/errors.js';
import { products } from '../src/modules/stores/index.js';

let t: TestServer;
let visitor: ReturnType<typeof makeVisitor>;
let owner: ReturnType<typeof makeOwner>;
const makeVisitor = () => createClient({ modules: { products }, auth: OAuthStrategy({ clientId: t.clientId }), host: t.url });
const makeOwner = () => createClient({ modules: { products }, auth: ApiKeyStrategy({ apiKey: t.apiKey, siteId: t.site.id }), host: t.url });

/** A bare HTTP peer for answers our server never gives (no body, empty status text, 5xx). */
let raw: net.Server;
let rawUrl: string;

beforeAll(async () => {
  t = await startTestServer();
  visitor = makeVisitor();
  owner = makeOwner();
  raw = net.createServer((socket) => {
    socket.once('data', (chunk) => {
      const path = chunk.toString().split(' ')[1] ?? '';
      const reply = (head: string, body = '') =>
        socket.end(`${head}\r\nx-wix-request-id: raw-req-1\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
      if (path.startsWith('/conflict')) reply('HTTP/1.1 409 Conflict');
      else if (path.startsWith('/nameless')) reply('HTTP/1.1 409 ');
      else if (path.startsWith('/html')) reply('HTTP/1.1 429 Too Many Requests\r\ncontent-type: text/html', '<h1>slow down</h1>');
      else reply('HTTP/1.1 500 Internal Server Error\r\ncontent-type: application/json', JSON.stringify({ message: 'System error occurred, request-id: raw-req-1', details: { applicationError: { code: 'INTERNAL_ERROR', description: 'System error occurred', data: {} } } }));
    });
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  rawUrl = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => raw?.close(resolve));
  await t?.close();
});

async function failure(promise: Promise<unknown>): Promise<VitrineError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(VitrineError);
  return error as VitrineError;
}

describe('error shapes (spec section 8)', () => {
  it('a validation error names the fields, sorted, with the request id', async () => {
    const error = await failure(visitor.products.queryProducts().limit(1001).find());
    expect(error.message).toBe('INVALID_ARGUMENT: "query.paging.limit" must be at most 100');
    expect(error).toMatchObject({ kind: 'validation', code: 'INVALID_ARGUMENT', status: 400 });
    expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.details).toEqual({
      validationError: { fieldViolations: [{ field: 'query.paging.limit', description: 'must be at most 100', violatedRule: 'MAX', data: expect.any(Object) }] },
      requestId: error.requestId,
    });

    const longId = await failure(visitor.products.getProduct('x'.repeat(101)));
    expect(longId.message).toBe('INVALID_ARGUMENT: "_id" must be at most 100 characters');

    const many = await failure(owner.products.createProduct({ name: '', priceData: { price: -1 }, discount: { type: 'PERCENT', value: 120 } }));
    expect(many.message).toBe('INVALID_ARGUMENT: "product.discount" a percent discount is at most 100, "product.name" must not be empty, "product.priceData.price" must be at least 0');
  });

  it('an application error carries code, description, data and the request id', async () => {
    const id = '00000000-0000-0000-0000-00000000abcd';
    const error = await failure(visitor.products.getProduct(id));
    expect(error).toMatchObject({ kind: 'application', status: 404, code: 'PRODUCT_NOT_FOUND', message: `Product ${id} not found` });
    expect(error.details).toEqual({ applicationError: { code: 'PRODUCT_NOT_FOUND', description: `Product ${id} not found`, data: {} }, requestId: error.requestId });
    expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.data).toEqual({});
  });

  it('a visitor calling an elevated call gets the 403 application error', async () => {
    const error = await failure(visitor.products.createProduct({ name: 'Sneaky', priceData: { price: 1 } }));
    expect(error).toMatchObject({ status: 403, code: 'ELEVATED_REQUIRED', message: 'This call needs an elevated caller (an API key of the site owner)' });
    expect((await owner.products.queryProducts().eq('name', 'Sneaky').find()).totalCount).toBe(0);
  });

  it('a 4xx without a JSON body takes its code from the status text', async () => {
    const c = createClient({ modules: {}, host: rawUrl });
    const conflict = await failure(c.request({ method: 'GET', path: '/conflict' }));
    expect(conflict).toMatchObject({ kind: 'application', status: 409, code: 'CONFLICT', message: 'Conflict', requestId: 'raw-req-1' });
    expect(conflict.details).toEqual({ applicationError: { code: 'CONFLICT', description: 'Conflict', data: {} }, requestId: 'raw-req-1' });
    const nameless = await failure(c.request({ method: 'GET', path: '/nameless' }));
    expect(nameless).toMatchObject({ status: 409, code: 'UNKNOWN', message: 'UNKNOWN' });
    const html = await failure(c.request({ method: 'POST', path: '/html', payload: {} }));
    expect(html).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS', message: 'Too Many Requests' });
  });

  it('a 5xx is a system error naming the request id', async () => {
    const c = createClient({ modules: {}, host: rawUrl });
    const error = await failure(c.request({ method: 'GET', path: '/boom' }));
    expect(error).toMatchObject({ kind: 'system', status: 500, code: 'INTERNAL_ERROR', requestId: 'raw-req-1', message: 'System error occurred, request-id: raw-req-1' });
  });

  it('no response at all is a system error', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = http.createServer();
      s.listen(0, '127.0.0.1', () => {
        const { port } = s.address() as AddressInfo;
        s.close(() => resolve(port));
      });
    });
    const c = createClient({ modules: { products }, auth: ApiKeyStrategy({ apiKey: 'k', siteId: 's' }), host: `http://127.0.0.1:${closed}` });
    const error = await failure(c.products.getProduct('x'));
    expect(error.message).toBe('System error occurred: fetch failed: ECONNREFUSED');
    expect(error).toMatchObject({ kind: 'system', status: undefined, requestId: undefined, code: 'UNKNOWN' });
    const viaToken = createClient({ modules: { products }, auth: OAuthStrategy({ clientId: 'demo' }), host: `http://127.0.0.1:${closed}` });
    expect((await failure(viaToken.products.getProduct('x'))).message).toBe('System error occurred: fetch failed: ECONNREFUSED');
  });

  it('a non-object thrown by fetch is rethrown unchanged', async () => {
    const c = createClient({ modules: {}, host: t.url, fetch: () => Promise.reject('plain string') });
    await expect(c.request({ method: 'GET', path: '/healthz' })).rejects.toBe('plain string');
  });

  it('joins message and description when they differ', () => {
    const error = errorFromResponse(400, 'Bad Request', 'r1', { message: 'Cannot add', details: { applicationError: { code: 'OUT_OF_STOCK', description: 'Only 2 left', data: { left: 2 } } } });
    expect(error).toMatchObject({ message: 'Cannot add: Only 2 left', code: 'OUT_OF_STOCK', requestId: 'r1' });
    expect(error.data).toEqual({ left: 2 });
  });
});
