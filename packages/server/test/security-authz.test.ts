import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, type ApiResponse, type TestServer } from './harness.js';
import { SLOW_START_MS } from './events-support.js';
import { createCollection, dataCall, ok, ownerAuth, type Auth } from './data-support.js';
import { memberToken } from './member-tokens.js';
import { as, freshIp, STRONG_PASSWORD, uniqueEmail, visitor } from './identity-helpers.js';
import { RATE_LIMITS } from '../src/domains/identity/rate-limit.js';

/**
 * SECURITY.md 8.2.3 (field level: system fields of data items) and 2.4.1 / 6.3.1 (anti-automation on
 * register and recovery e-mails, client IP only from trusted proxies). Orders, carts, checkouts,
 * payments and coupons have no module yet: their lines are N/A in docs/security.md.
 */

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ trustedProxies: ['127.0.0.1'] });
  await createCollection(t, 'open');
}, SLOW_START_MS);
afterAll(() => t?.close());

const OLD = { $date: '2001-02-03T04:05:06.000Z' };
const getItem = async (id: string) => (await call(t.url, `/wix-data/v2/items/${id}`, { ...ownerAuth(t), query: { dataCollectionId: 'open' } })).body.dataItem?.data;

function expectServerOwned(item: Record<string, { $date?: string } | string>, caller: string): void {
  expect(item._owner).toBe(caller);
  for (const key of ['_createdDate', '_updatedDate'] as const) {
    const value = item[key] as { $date: string };
    expect(value.$date.startsWith('2001')).toBe(false);
    expect(Math.abs(Date.parse(value.$date) - Date.now())).toBeLessThan(60_000);
  }
}

describe('field level: callers cannot set _owner, _createdDate, _updatedDate (8.2.3)', () => {
  it('insert, save, bulk insert, bulk save and bulk update by a member keep the server values', async () => {
    const memberId = 'field-member-1';
    const m: Auth = { auth: await memberToken(t, memberId) };
    const forged = { _owner: 'someone-else', _createdDate: OLD, _updatedDate: OLD };
    await ok(t, m, '/items', { dataCollectionId: 'open', dataItem: { id: 'f1', data: { text: 'x', ...forged } } });
    expectServerOwned(await getItem('f1'), memberId);
    await ok(t, m, '/items/save', { dataCollectionId: 'open', dataItem: { id: 'f2', data: { text: 'x', ...forged } } });
    expectServerOwned(await getItem('f2'), memberId);
    await ok(t, m, '/bulk/items/insert', { dataCollectionId: 'open', dataItems: [{ id: 'f3', data: { ...forged } }] });
    expectServerOwned(await getItem('f3'), memberId);
    await ok(t, m, '/bulk/items/save', { dataCollectionId: 'open', dataItems: [{ id: 'f4', data: { ...forged } }, { id: 'f1', data: { text: 'y', ...forged } }] });
    expectServerOwned(await getItem('f4'), memberId);
    expectServerOwned(await getItem('f1'), memberId);
    await ok(t, m, '/bulk/items/update', { dataCollectionId: 'open', dataItems: [{ id: 'f2', data: { text: 'z', ...forged } }] });
    const f2 = await getItem('f2');
    expect(f2.text).toBe('z');
    expectServerOwned(f2, memberId);
  });

  it('patching a system field is refused for visitors and members, and changes nothing', async () => {
    const memberId = 'field-member-2';
    const m: Auth = { auth: await memberToken(t, memberId) };
    await ok(t, m, '/items', { dataCollectionId: 'open', dataItem: { id: 'p1', data: { text: 'x' } } });
    const before = await getItem('p1');
    for (const fieldPath of ['_owner', '_createdDate', '_updatedDate', '_id']) {
      const res = await dataCall(t, m, '/items/patch', { dataCollectionId: 'open', patch: { dataItemId: 'p1', fieldModifications: [{ action: 'SET_FIELD', fieldPath, setFieldOptions: { value: fieldPath === '_owner' ? 'x' : OLD } }] } });
      expect(res.status, fieldPath).toBe(400);
      const bulk = await dataCall(t, m, '/bulk/items/patch', { dataCollectionId: 'open', patches: [{ dataItemId: 'p1', fieldModifications: [{ action: 'REMOVE_FIELD', fieldPath }] }] });
      expect(bulk.status === 400 || bulk.body.bulkActionMetadata?.totalFailures === 1, `${fieldPath} ${JSON.stringify(bulk.body)}`).toBe(true);
    }
    expect(await getItem('p1')).toEqual(before);
  });
});

describe('anti-automation (2.4.1, 6.3.1)', () => {
  const register = async (ip: string, email: string) => {
    const v = await visitor(t, ip);
    return call(t.url, '/_api/iam/authentication/v2/register', as(v, { loginId: { email }, password: STRONG_PASSWORD }));
  };

  function expect429(res: ApiResponse): void {
    expect(res.status).toBe(429);
    expect(res.body.details.applicationError.code).toBe('TOO_MANY_REQUESTS');
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  }

  it('register: one e-mail from one IP is throttled after its limit; the same e-mail from another IP is not', async () => {
    const ip = freshIp();
    const email = uniqueEmail('reg');
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMITS.register.perIdentifierIp; i += 1) statuses.push((await register(ip, email)).status);
    expect(statuses[0]).toBe(200);
    expect(statuses.every((s) => s !== 429)).toBe(true);
    expect429(await register(ip, email));
    expect((await register(freshIp(), uniqueEmail('reg'))).status).toBe(200);
  });

  it('register: one IP is throttled across many e-mails', async () => {
    const ip = freshIp();
    for (let i = 0; i < RATE_LIMITS.register.perIp; i += 1) {
      const res = await register(ip, uniqueEmail(`many${i}`));
      expect(res.status).not.toBe(429);
    }
    expect429(await register(ip, uniqueEmail('reg')));
  }, 60_000);

  it('recovery e-mails: one IP is throttled across many addresses', async () => {
    const v = await visitor(t);
    for (let i = 0; i < RATE_LIMITS['send-email'].perIp; i += 1) {
      expect((await call(t.url, '/_api/iam/recovery/v1/send-email', as(v, { email: uniqueEmail('rec') }))).status).toBe(200);
    }
    expect429(await call(t.url, '/_api/iam/recovery/v1/send-email', as(v, { email: uniqueEmail('rec') })));
  });

  it('without trusted proxies, X-Forwarded-For is ignored: rotating it does not escape the limit', async () => {
    const plain = await startTestServer();
    try {
      const email = uniqueEmail('xff');
      const token = (await call(plain.url, '/oauth2/token', { body: { clientId: plain.clientId, grantType: 'anonymous' } })).body.access_token as string;
      const statuses: number[] = [];
      for (let i = 0; i <= RATE_LIMITS['send-email'].perIdentifierIp; i += 1) {
        const res = await call(plain.url, '/_api/iam/recovery/v1/send-email', { auth: token, headers: { 'x-forwarded-for': freshIp() }, body: { email } });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([...Array<number>(RATE_LIMITS['send-email'].perIdentifierIp).fill(200), 429]);
    } finally {
      await plain.close();
    }
  }, SLOW_START_MS);
});
