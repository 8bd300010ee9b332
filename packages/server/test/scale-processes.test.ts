import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './harness.js';
import { freshDatabase, startServerProcess, stopServerProcess, type FreshDatabase, type ServerProcess } from './child-server.js';
import { freshIp, pkce, STRONG_PASSWORD, uniqueEmail, type Actor } from './identity-helpers.js';
import { startMailbox, type Mailbox } from './mailbox.js';
import { getSite, SITE_CACHE_MS, updateSite } from '../src/domains/sites/service.js';
import { COLLECTION_CACHE_MS } from '../src/domains/data/common.js';
import { DEMO_SITE_SLUG } from '../src/cli/demo-store.js';
import { enqueueMail } from '../src/domains/events/mail.js';
import { solveChallenge, type CaptchaChallenge } from '../src/domains/identity/captcha.js';
import { RATE_LIMITS } from '../src/domains/identity/rate-limit.js';

/**
 * Two real server processes (`vitrine start` as children) on different ports over one database and
 * nothing else: every piece of state that must hold across processes is exercised by writing through
 * one process and reading through the other.
 */

const MAILS = 12;
const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
/** Slack on top of a cache bound: one poll interval plus a loaded machine's scheduling delay. */
const BOUND_SLACK_MS = 3_000;
const V1_QUERY = '/stores-reader/v1/products/query-platformized';
let db: FreshDatabase;
let a: ServerProcess;
let b: ServerProcess;
let mailbox: Mailbox;
let siteId: string;
let owner: { apiKey: string; siteId: string };

const asActor = (actor: Actor, body?: unknown) => ({ auth: actor.token, headers: { 'x-forwarded-for': actor.ip }, ...(body !== undefined ? { body } : {}) });

async function visitorOn(p: ServerProcess, ip = freshIp()): Promise<Actor> {
  const res = await call(p.url, '/oauth2/token', { body: { clientId: 'demo', grantType: 'anonymous' }, headers: { 'x-forwarded-for': ip } });
  expect(res.status).toBe(200);
  return { ip, token: res.body.access_token as string };
}

/** A solved captcha challenge of `p` (captcha is on for the demo site in this file). */
async function captchaOn(p: ServerProcess): Promise<string> {
  const challenge = await call<CaptchaChallenge>(p.url, '/_api/iam/captcha/v1/challenge?mode=invisible');
  expect(challenge.status).toBe(200);
  return solveChallenge(challenge.body);
}

/** Registers on `p` and signs in through the redirect session and code exchange on `p`: a member's access token. */
async function memberOn(p: ServerProcess): Promise<string> {
  const v = await visitorOn(p);
  const captchaTokens = [{ InvisibleRecaptcha: await captchaOn(p) }];
  const reg = await call(p.url, '/_api/iam/authentication/v2/register', asActor(v, { loginId: { email: uniqueEmail('scale') }, password: STRONG_PASSWORD, captchaTokens }));
  expect(reg.status).toBe(200);
  const { verifier, challenge } = pkce();
  const rs = await call(p.url, '/_api/redirects-api/v1/redirect-session', asActor(v, {
    auth: {
      authRequest: {
        clientId: 'demo', redirectUri: 'http://localhost:5173/callback', codeChallenge: challenge, codeChallengeMethod: 'S256',
        responseMode: 'query', responseType: 'code', scope: 'offline_access', state: 's', sessionToken: reg.body.sessionToken,
      },
      prompt: 'none',
    },
  }));
  expect(rs.status).toBe(200);
  const page = await fetch(String(rs.body.redirectSession.fullUrl).replace(/^https?:\/\/[^/]+/, p.url), { redirect: 'manual' });
  const code = new URL(page.headers.get('location') ?? '').searchParams.get('code');
  const tokens = await call(p.url, '/oauth2/token', { body: { clientId: 'demo', grantType: 'authorization_code', redirectUri: 'http://localhost:5173/callback', code, codeVerifier: verifier } });
  expect(tokens.status).toBe(200);
  return tokens.body.access_token as string;
}

beforeAll(async () => {
  mailbox = await startMailbox();
  db = freshDatabase('vitrine-scale-');
  const env = { ...db.env, SMTP_URL: mailbox.url, TRUSTED_PROXIES: '127.0.0.1', JOBS_POLL_MS: '200' };
  a = await startServerProcess(env, 'A');
  // Captcha on before B starts and before any request: neither process has read the site yet.
  siteId = await db.read(async (h) => {
    const site = (await getSite(h, DEMO_SITE_SLUG))!;
    await updateSite(h, site.id, { settings: { ...site.settings, captcha: 'invisible' } });
    return site.id;
  });
  b = await startServerProcess(env, 'B');
  owner = await db.ownerKey('scale');
}, 120_000);

afterAll(async () => {
  for (const p of [a, b]) if (p) await stopServerProcess(p, 'SIGTERM');
  await mailbox?.close();
  await db?.drop();
});

describe('two processes, one database', () => {
  it('an API key revoked through A is refused by B on the next request', async () => {
    const key = await db.ownerKey('revoke-me');
    const asKey = { auth: key.apiKey, siteId };
    expect((await call(b.url, '/stores/v3/products/query', { ...asKey, body: { query: {} } })).status).toBe(200);
    const listed = await call(a.url, '/_api/vitrine/owners/v1/api-keys', { auth: owner.apiKey, siteId });
    const id = (listed.body.apiKeys as { id: string; name: string }[]).find((k) => k.name === 'revoke-me')!.id;
    expect((await call(a.url, `/_api/vitrine/owners/v1/api-keys/${id}`, { method: 'DELETE', auth: owner.apiKey, siteId })).status).toBe(200);
    const refused = await call(b.url, '/stores/v3/products/query', { ...asKey, body: { query: {} } });
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('The API key is invalid or revoked');
  });

  it('a member token revoked through A (the owner blocks the member) is refused by B at once', async () => {
    const token = await memberOn(a);
    const me = await call(b.url, '/members/v1/members/my', { auth: token });
    expect(me.status).toBe(200);
    const memberId = me.body.member.id as string;
    const blocked = await call(a.url, `/members/v1/members/${memberId}/block`, { method: 'POST', auth: owner.apiKey, siteId, body: {} });
    expect(blocked.status).toBe(200);
    const after = await call(b.url, '/members/v1/members/my', { auth: token });
    expect(after.status).toBe(401);
  });

  it('login throttling counts attempts on both processes in one window', async () => {
    const ip = freshIp();
    const email = uniqueEmail('throttle');
    const limit = RATE_LIMITS.login.perIdentifierIp;
    const statuses: number[] = [];
    for (let i = 0; i <= limit; i++) {
      const p = i % 2 === 0 ? a : b;
      const v = await visitorOn(p, ip);
      // Captcha is on: each attempt carries a fresh solution, so only the throttle decides.
      const res = await call(p.url, '/_api/iam/authentication/v2/login', asActor(v, { loginId: { email }, password: 'wrong password 123', captchaTokens: [{ InvisibleRecaptcha: await captchaOn(p) }] }));
      statuses.push(res.status);
    }
    // `limit` attempts pass the throttle (and fail as a wrong login), the next one, wherever it lands, is 429.
    expect(statuses.slice(0, limit).every((s) => s !== 429)).toBe(true);
    expect(statuses[limit]).toBe(429);
  });

  it('a captcha solution used on A is a replay on B', async () => {
    const token = await captchaOn(a);
    const email = uniqueEmail('captcha');
    const ok = await call(a.url, '/_api/iam/authentication/v2/register', asActor(await visitorOn(a), { loginId: { email }, password: STRONG_PASSWORD, captchaTokens: [{ InvisibleRecaptcha: token }] }));
    expect(ok.status).toBe(200);
    const replay = await call(b.url, '/_api/iam/authentication/v2/login', asActor(await visitorOn(b), { loginId: { email }, password: STRONG_PASSWORD, captchaTokens: [{ InvisibleRecaptcha: token }] }));
    expect(replay.body.details.applicationError.code).toBe('-19970');
  });

  it('a cursor from A continues on B: the pages join into the list one process answers by offset', async () => {
    const query = { filter: { 'priceData.price': { $lt: 100 } }, sort: [{ fieldName: 'price', order: 'ASC' }] };
    const all = await call(a.url, V1_QUERY, { auth: owner.apiKey, siteId, body: { query: { ...query, paging: { limit: 100 } } } });
    const names = (all.body.products as { name: string }[]).map((p) => p.name);
    expect(names.length).toBeGreaterThan(4);
    const first = await call(a.url, V1_QUERY, { auth: owner.apiKey, siteId, body: { query: { ...query, cursorPaging: { limit: 2 } } } });
    const cursor = first.body.metadata.cursors.next as string;
    const second = await call(b.url, V1_QUERY, { auth: owner.apiKey, siteId, body: { query: { cursorPaging: { limit: 2, cursor } } } });
    expect(second.status).toBe(200);
    expect([...first.body.products, ...second.body.products].map((p: { name: string }) => p.name)).toEqual(names.slice(0, 4));
  });

  it('a product created on A is counted and listed by B at once (the cached listing total follows the write)', async () => {
    const body = { query: { paging: { limit: 100 } } };
    const before = await call(b.url, V1_QUERY, { auth: owner.apiKey, siteId, body });
    expect(before.status).toBe(200);
    const name = `Scale tee ${Date.now()}`;
    const created = await call(a.url, '/stores/v1/products', { auth: owner.apiKey, siteId, body: { product: { name, productType: 'physical', priceData: { price: 12 } } } });
    expect(created.status).toBe(200);
    const after = await call(b.url, V1_QUERY, { auth: owner.apiKey, siteId, body });
    expect(after.body.metadata.total).toBe(before.body.metadata.total + 1);
    expect((after.body.products as { name: string }[]).filter((p) => p.name === name)).toHaveLength(1);
  });

  it('a discount rule saved or deleted on A prices the next estimate on B (the cached pricing setup follows the version)', async () => {
    const product = await call(a.url, '/stores/v1/products', { auth: owner.apiKey, siteId, body: { product: { name: `Priced ${Date.now()}`, productType: 'physical', priceData: { price: 20 } } } });
    expect(product.status).toBe(200);
    const v = await visitorOn(b);
    const line = { quantity: 1, catalogReference: { catalogItemId: product.body.product.id as string, appId: STORES_APP_ID } };
    expect((await call(b.url, '/ecom/v1/carts/current/add-to-cart', asActor(v, { lineItems: [line] }))).status).toBe(200);
    const discount = async () => (await call(b.url, '/ecom/v1/carts/current/estimate-totals', asActor(v, {}))).body.priceSummary.discount.amount as string;
    const before = await discount(); // B has loaded (and keeps) the site's pricing setup
    const rule = await call(a.url, '/ecom/v1/discount-rules', { auth: owner.apiKey, siteId, body: { discountRule: {
      name: 'Half off everything', active: true, trigger: { triggerType: 'SUBTOTAL_RANGE', subtotalRange: { from: '1' } },
      discounts: { values: [{ targetType: 'SPECIFIC_ITEMS', specificItemsInfo: { scopes: [{ type: 'CATALOG_ITEM', catalogItemFilter: { catalogAppId: STORES_APP_ID } }] }, discountType: 'PERCENTAGE', percentage: 50 }] },
    } } });
    expect(rule.status).toBe(200);
    const during = await discount();
    expect((await call(a.url, `/ecom/v1/discount-rules/${rule.body.discountRule.id}`, { auth: owner.apiKey, siteId, method: 'DELETE' })).status).toBe(200);
    expect([before, during, await discount()]).toEqual(['0.00', '10.00', '0.00']);
  });

  it('a price changed on A prices the next cart read on B (B keeps parsed product documents only while their stored text is unchanged)', async () => {
    const product = await call(a.url, '/stores/v1/products', { auth: owner.apiKey, siteId, body: { product: { name: `Kept ${Date.now()}`, productType: 'physical', priceData: { price: 20 } } } });
    expect(product.status).toBe(200);
    const id = product.body.product.id as string;
    const v = await visitorOn(b);
    const line = { quantity: 2, catalogReference: { catalogItemId: id, appId: STORES_APP_ID } };
    expect((await call(b.url, '/ecom/v1/carts/current/add-to-cart', asActor(v, { lineItems: [line] }))).status).toBe(200);
    const lineOnB = async () => (await call(b.url, '/ecom/v1/carts/current', asActor(v))).body.cart.lineItems[0] as { price: { amount: string }; lineItemPrice: { amount: string } };
    const before = await lineOnB(); // B has parsed (and keeps) the product's document
    const patched = await call(a.url, `/stores/v1/products/${id}`, { auth: owner.apiKey, siteId, method: 'PATCH', body: { product: { priceData: { price: 23.5 } } } });
    expect(patched.status).toBe(200);
    const after = await lineOnB();
    expect([before.price.amount, before.lineItemPrice.amount, after.price.amount, after.lineItemPrice.amount]).toEqual(['20.00', '40.00', '23.50', '47.00']);
  });

  it(`jobs: ${MAILS} queued mails are each sent exactly once while both processes run jobs`, async () => {
    const to = uniqueEmail('jobs');
    await db.read(async (h) => {
      for (let i = 0; i < MAILS; i++) await enqueueMail({ db: h, site: { id: siteId }, deps: { config: { smtpUrl: mailbox.url } } }, { template: 'test', to, subject: `job mail ${i}`, html: `<p>${i}</p>`, text: String(i) });
    });
    const deadline = Date.now() + 20_000;
    while (mailbox.messages.filter((m) => m.to.includes(to)).length < MAILS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    // A little longer: a second delivery of any mail would arrive now.
    await new Promise((r) => setTimeout(r, 1_000));
    const subjects = mailbox.messages.filter((m) => m.to.includes(to)).map((m) => m.subject).sort();
    expect(subjects).toEqual(Array.from({ length: MAILS }, (_, i) => `job mail ${i}`).sort());
  });

  it(`bounded cache: a collection made private through A is refused to visitors by B within COLLECTION_CACHE_MS (${COLLECTION_CACHE_MS} ms)`, async () => {
    const asOwner = { auth: owner.apiKey, siteId };
    const created = await call(a.url, '/wix-data/v2/collections', { ...asOwner, body: { collection: { id: 'scaleNotes', displayName: 'Notes', fields: [], permissions: { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' } } } });
    expect(created.status).toBe(200);
    const v = await visitorOn(b);
    const query = () => call(b.url, '/wix-data/v2/items/query', asActor(v, { dataCollectionId: 'scaleNotes', query: {} }));
    expect((await query()).status).toBe(200); // B now holds the definition in its cache
    const patched = await call(a.url, '/wix-data/v2/collections/scaleNotes', { ...asOwner, method: 'PATCH', body: { dataCollection: { permissions: { read: 'ADMIN' } } } });
    expect(patched.status).toBe(200);
    const changedAt = Date.now();
    let refusedAfter: number | undefined;
    while (refusedAfter === undefined && Date.now() - changedAt < COLLECTION_CACHE_MS + BOUND_SLACK_MS) {
      if ((await query()).status === 403) refusedAfter = Date.now() - changedAt;
      else await new Promise((r) => setTimeout(r, 50));
    }
    expect(refusedAfter).toBeDefined();
    expect(refusedAfter!).toBeLessThan(COLLECTION_CACHE_MS + BOUND_SLACK_MS);
  });

  it(`bounded cache: a site disabled in the database is refused by both processes within SITE_CACHE_MS (${SITE_CACHE_MS} ms)`, async () => {
    const v = await visitorOn(b);
    const probe = (p: ServerProcess) => call(p.url, '/stores-reader/v1/products/query-platformized', asActor(v, { query: { paging: { limit: 1 } } }));
    expect((await probe(a)).status).toBe(200);
    expect((await probe(b)).status).toBe(200);
    await db.read((h) => updateSite(h, siteId, { status: 'DISABLED' }));
    const changedAt = Date.now();
    try {
      for (const p of [a, b]) {
        let code: string | undefined;
        while (code !== 'SITE_DISABLED' && Date.now() - changedAt < SITE_CACHE_MS + BOUND_SLACK_MS) {
          const res = await probe(p);
          code = res.status === 403 ? res.body.details.applicationError.code : undefined;
          if (code !== 'SITE_DISABLED') await new Promise((r) => setTimeout(r, 100));
        }
        expect(code).toBe('SITE_DISABLED');
      }
    } finally {
      await db.read((h) => updateSite(h, siteId, { status: 'ENABLED' }));
    }
  }, 20_000);
});
