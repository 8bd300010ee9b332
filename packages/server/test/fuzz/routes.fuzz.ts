import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../../src/http/routes.js';
import type { Access, RouteDef } from '../../src/http/route.js';
import { createSite } from '../../src/domains/sites/service.js';
import { createApiKey } from '../../src/domains/identity/service.js';
import { call, startTestServer, visitorTokens, type TestServer } from '../harness.js';
import { memberToken, memberWithToken } from '../member-tokens.js';
import { casesFor, prng, type FuzzRequest } from './generate.js';
import { changedTables, installChangeCounters, readChangeCounters } from './change-counter.js';

/**
 * Hostile input against every route, as every kind of caller: cases generated from the route
 * table's zod schemas (generate.ts). Each answer must be below 500, carry no stack trace, SQL or
 * file path, no data of another site and no private data of another member; a refused request
 * (4xx) must change no row (change-counter.ts). Seeded: the same seed repeats a run exactly. CI runs
 * DEFAULT_SEED so a landing never depends on luck; FUZZ_SEED=<n> runs another set, FUZZ_SEED=random a
 * fresh one (printed, so a finding can be repeated).
 */
const DEFAULT_SEED = 3;
const SEED = process.env.FUZZ_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED ?? DEFAULT_SEED);
/** The issue asks for at least this many malformed requests per run. */
const MIN_REQUESTS = 10_000;
/** Each case goes to the route's own caller, and this share of them also to a caller picked at random. */
const EXTRA_CALLER_SHARE = 0.15;
/** Member tokens are minted anew this often (a fuzzed logout revokes them). */
const REFRESH_TOKENS_EVERY = 250;
/** Per request; a hung request is a failure of its own. */
const REQUEST_TIMEOUT_MS = 30_000;
/** Failures kept for the report (the count is always exact). */
const REPORTED_FAILURES = 40;

/**
 * Tables a refused request may change on purpose: the failed-attempt counters of rate limiting
 * (counting refused logins is their job).
 */
const WRITES_ALLOWED_WHEN_REFUSED = new Set(['rate_limits']);

/** Strings only site B's data holds; no answer to a site A caller may contain them. */
const OTHER_SITE_MARKER = 'siteb-secret';
/** Member B's login e-mail: private to member B and the site owner. */
const MEMBER_B_MARKER = 'memberb-private';
const MEMBER_A_MARKER = 'membera-private';

/** A stack frame, a source path, or SQL text in an answer. */
const LEAKS: [string, RegExp][] = [
  ['stack trace', /\n\s+at \S.*:\d+:\d+\)?/],
  ['source path', /node_modules|packages\/server\/src|\.ts:\d+/],
  ['SQL', /\b(SELECT\s.+\sFROM|INSERT INTO|UPDATE\s+"?\w+"?\s+SET|DELETE FROM)\b|SQLITE_[A-Z]|syntax error at or near|relation "\w+"|violates (unique|foreign key|not-null)/],
];

type CallerName = 'anonymous' | 'visitor' | 'member' | 'otherMember' | 'owner' | 'otherSiteKey';
const CALLERS: CallerName[] = ['anonymous', 'visitor', 'member', 'otherMember', 'owner', 'otherSiteKey'];

/** The caller that passes the route's function-level check, so its input is decoded and used. */
function ownCaller(access: Access, rand: () => number): CallerName {
  if (access === 'elevated') return 'owner';
  if (access === 'member') return rand() < 0.5 ? 'member' : 'otherMember';
  if (access === 'public') return 'anonymous';
  return (['visitor', 'member', 'owner'] as const)[Math.floor(rand() * 3)]!;
}

let t: TestServer;
let pathIds: string[] = [];
const headersOf: Record<CallerName, Record<string, string>> = { anonymous: {}, visitor: {}, member: {}, otherMember: {}, owner: {}, otherSiteKey: {} };
let memberA = '';
let memberB = '';

async function refreshMemberTokens(): Promise<void> {
  headersOf.member = { authorization: await memberToken(t, memberA) };
  headersOf.otherMember = { authorization: await memberToken(t, memberB) };
  headersOf.visitor = { authorization: (await visitorTokens(t)).accessToken };
}

beforeAll(async () => {
  // No background jobs: only the requests themselves change rows while the fuzzer watches.
  t = await startTestServer({ jobs: { runnerEnabled: false, pollIntervalMs: 1_000, leaseMs: 30_000, backoffBaseMs: 5_000, backoffMaxMs: 60_000 } });
  const db = t.server.deps.storage.db;
  const siteB = await createSite(db, { slug: 'fuzz-other-site', name: 'Other site' });
  const keyB = (await createApiKey(db, { siteId: siteB.id, name: 'fuzz' })).apiKey;
  const asB = { auth: keyB, siteId: siteB.id };
  const productB = await call(t.url, '/stores/v1/products', { ...asB, body: { product: { name: `${OTHER_SITE_MARKER} product`, priceData: { price: 5 } } } });
  expect(productB.status).toBe(200);
  await call(t.url, '/wix-data/v2/collections', { ...asB, body: { collection: { id: 'secrets', displayName: 'secrets', fields: [], permissions: { read: 'ANYONE', insert: 'ANYONE', update: 'ANYONE', remove: 'ANYONE' } } } });
  const itemB = await call(t.url, '/wix-data/v2/items', { ...asB, body: { dataCollectionId: 'secrets', dataItem: { id: 'secret-1', data: { note: `${OTHER_SITE_MARKER} note` } } } });
  expect(itemB.status).toBe(200);
  memberA = (await memberWithToken(t, { loginEmail: `${MEMBER_A_MARKER}@fuzz.test`, profile: { nickname: 'Fuzzer A' } })).id;
  memberB = (await memberWithToken(t, { loginEmail: `${MEMBER_B_MARKER}@fuzz.test`, profile: { nickname: 'Fuzzer B' } })).id;
  headersOf.owner = { authorization: t.apiKey, 'wix-site-id': t.site.id };
  headersOf.otherSiteKey = { authorization: keyB, 'wix-site-id': t.site.id };
  await refreshMemberTokens();
  const productA = (await call(t.url, '/stores-reader/v1/products/query-platformized', { auth: headersOf.visitor.authorization, body: {} })).body?.products?.[0]?.id as string | undefined;
  // Path parameters: real ids of this site, of the other site (cross-site object access) and of the members.
  pathIds = [productB.body.product.id, 'secret-1', memberA, memberB, ...(productA ? [productA] : []), '00000000-0000-4000-8000-000000000000', 'secrets'];
  await installChangeCounters(db, t.server.deps.storage.dialect);
}, 120_000);
afterAll(() => t?.close());

interface Failure { caller: CallerName; kind: string; method: string; path: string; status: number; problem: string; excerpt: string }

async function send(req: FuzzRequest, caller: CallerName): Promise<{ status: number; text: string }> {
  const res = await fetch(new URL(req.path, t.url), {
    method: req.method,
    headers: { ...headersOf[caller], ...req.headers },
    body: req.body,
    redirect: 'manual',
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return { status: res.status, text: await res.text() };
}

/**
 * The one deliberate 5xx: 501 in the wire format for a redirect-session kind the contract names but
 * this server does not build (identity/redirect-sessions.ts).
 */
const DELIBERATE_501 = /"code":"SECTION_NOT_SUPPORTED"/;

function problemsOf(caller: CallerName, status: number, text: string): string[] {
  const problems: string[] = [];
  if (status >= 500 && !(status === 501 && DELIBERATE_501.test(text))) problems.push(`status ${status}`);
  const lower = text.toLowerCase();
  if (lower.includes(OTHER_SITE_MARKER)) problems.push("another site's data");
  if (lower.includes(MEMBER_B_MARKER) && caller !== 'owner' && caller !== 'otherMember') problems.push("another member's data");
  if (lower.includes(MEMBER_A_MARKER) && caller !== 'owner' && caller !== 'member') problems.push("another member's data");
  for (const [name, pattern] of LEAKS) if (pattern.test(text)) problems.push(name);
  return problems;
}

describe('hostile input against every route, as every caller', () => {
  it(`${MIN_REQUESTS}+ malformed requests: no 5xx, no leak, no row changed by a refused request`, async () => {
    console.log(`fuzz seed ${SEED} (repeat with FUZZ_SEED=${SEED})`);
    const rand = prng(SEED);
    const routes: RouteDef[] = allRoutes();
    const idOf = () => pathIds[Math.floor(rand() * pathIds.length)]!;
    const plan: { req: FuzzRequest; caller: CallerName }[] = [];
    for (const route of routes) {
      for (const req of casesFor(route, rand, idOf)) {
        plan.push({ req, caller: ownCaller(route.access, rand) });
        if (rand() < EXTRA_CALLER_SHARE) plan.push({ req, caller: CALLERS[Math.floor(rand() * CALLERS.length)]! });
      }
    }
    // Header breakage on a sample of routes: garbage credentials and site ids.
    for (const route of routes) {
      const path = route.path.replace(/:[A-Za-z0-9_]+/g, idOf);
      const odd: { headers: Record<string, string>; caller: CallerName }[] = [
        { headers: { authorization: 'Bearer ' + 'x'.repeat(10_000) }, caller: 'anonymous' },
        { headers: { authorization: t.apiKey, 'wix-site-id': 'not-a-site' }, caller: 'anonymous' },
        { headers: { authorization: t.apiKey, 'wix-site-id': '\u00ff\u00fe' }, caller: 'anonymous' },
        // The owner's real key beside an over-long Idempotency-Key: whatever succeeds is the owner's to see.
        { headers: { 'idempotency-key': 'k'.repeat(5_000), authorization: t.apiKey, 'wix-site-id': t.site.id }, caller: 'owner' },
      ];
      for (const { headers, caller } of odd) {
        plan.push({ req: { kind: `header ${Object.keys(headers).join('+')}`, method: route.method, path, headers }, caller });
      }
    }
    expect(plan.length).toBeGreaterThanOrEqual(MIN_REQUESTS);

    const db = t.server.deps.storage.db;
    const failures: Failure[] = [];
    let failureCount = 0;
    const statuses = new Map<number, number>();
    let counters = await readChangeCounters(db);
    for (let i = 0; i < plan.length; i++) {
      if (i > 0 && i % REFRESH_TOKENS_EVERY === 0) {
        await refreshMemberTokens();
        counters = await readChangeCounters(db);
      }
      const { req, caller } = plan[i]!;
      let status = 0;
      let text = '';
      try {
        // Once more when the pooled keep-alive socket was closed under the request (the HTTP/1.1
        // reuse race every client retries; the server closes after 413 and 431 answers): a second
        // failure is a real "no answer".
        ({ status, text } = await send(req, caller).catch((err: unknown) => {
          if (!/other side closed|ECONNRESET|EPIPE/.test(String((err as { cause?: unknown }).cause))) throw err;
          return send(req, caller);
        }));
      } catch (err) {
        text = `${String(err)} ${String((err as { cause?: unknown }).cause ?? '')}`;
      }
      if (process.env.FUZZ_TRACE) console.log(status, caller, req.kind, req.method, req.path.slice(0, 100), text.slice(0, 120));
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      const problems = status === 0 ? [`no answer: ${text}`] : problemsOf(caller, status, text);
      // 413 and 431 are answered before any handler runs: nothing there can write (saves a read per case).
      if (status !== 413 && status !== 431) {
        const after = await readChangeCounters(db);
        if (status >= 400) {
          const changed = changedTables(counters, after).filter((n) => !WRITES_ALLOWED_WHEN_REFUSED.has(n));
          if (changed.length > 0) problems.push(`refused but changed ${changed.join(', ')}`);
        }
        counters = after;
      }
      if (problems.length > 0) {
        failureCount++;
        if (failures.length < REPORTED_FAILURES) failures.push({ caller, kind: req.kind, method: req.method, path: req.path.slice(0, 160), status, problem: problems.join('; '), excerpt: text.slice(0, 200) });
      }
    }
    // The change counters did count: the accepted requests changed rows.
    expect([...(await readChangeCounters(db)).values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    console.log(`fuzz: ${plan.length} requests over ${routes.length} routes; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}; ${failureCount} failures`);
    expect({ seed: SEED, failureCount, failures }).toEqual({ seed: SEED, failureCount: 0, failures: [] });
  }, 600_000);
});
