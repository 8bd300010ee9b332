import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, visitorTokens, type TestServer } from './harness.js';
import { eventsOf, memberWithToken } from './member-tokens.js';

/** Discount rules over HTTP: CRUD, status from the active window, validation, revisions, query paging, events, access. */

const STORES = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
let t: TestServer;
beforeAll(async () => { t = await startTestServer(); });
afterAll(async () => { await t.close(); });

const rule = (over: Record<string, unknown> = {}) => ({
  name: 'Ten off over 100',
  active: true,
  trigger: { triggerType: 'SUBTOTAL_RANGE', subtotalRange: { from: '100' } },
  discounts: { values: [{ targetType: 'SPECIFIC_ITEMS', specificItemsInfo: { scopes: [{ type: 'CATALOG_ITEM', catalogItemFilter: { catalogAppId: STORES } }] }, discountType: 'PERCENTAGE', percentage: 10 }] },
  ...over,
});

async function ruleCount(): Promise<number> {
  const rows = await t.server.deps.storage.db.selectFrom('discount_rules').select('id').where('site_id', '=', t.site.id).execute();
  return rows.length;
}

describe('discount rules', () => {
  it('creates, reads, updates with the revision and deletes, with an event per change', async () => {
    const created = await call(t.url, '/ecom/v1/discount-rules', { ...asOwner(t), body: { discountRule: rule() } });
    expect(created.status).toBe(200);
    const r = created.body.discountRule;
    expect(r).toMatchObject({ name: 'Ten off over 100', active: true, revision: '1', status: 'LIVE', usageCount: 0 });
    expect(r.discounts.values[0]).toEqual(rule().discounts.values[0]);

    const got = await call(t.url, `/ecom/v1/discount-rules/${r.id}`, asOwner(t));
    expect(got.status).toBe(200);
    expect(got.body.discountRule).toEqual(r);

    const stale = await call(t.url, `/ecom/v1/discount-rules/${r.id}`, { ...asOwner(t), method: 'PATCH', body: { discountRule: { revision: '7', name: 'x' } } });
    expect(stale.status).toBe(409);
    expect(stale.body.details.applicationError.code).toBe('REVISION_MISMATCH');
    const noRevision = await call(t.url, `/ecom/v1/discount-rules/${r.id}`, { ...asOwner(t), method: 'PATCH', body: { discountRule: { name: 'x' } } });
    expect(noRevision.status).toBe(400);
    expect(noRevision.body.details.validationError.fieldViolations[0].field).toBe('discountRule.revision');

    const updated = await call(t.url, `/ecom/v1/discount-rules/${r.id}`, { ...asOwner(t), method: 'PATCH', body: { discountRule: { id: r.id, revision: '1', name: 'Renamed', active: false } } });
    expect(updated.status).toBe(200);
    expect(updated.body.discountRule).toMatchObject({ name: 'Renamed', active: false, revision: '2', status: 'EXPIRED' });
    expect(updated.body.discountRule.trigger).toEqual(r.trigger);

    const deleted = await call(t.url, `/ecom/v1/discount-rules/${r.id}`, { ...asOwner(t), method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({});
    const gone = await call(t.url, `/ecom/v1/discount-rules/${r.id}`, asOwner(t));
    expect(gone.status).toBe(404);
    expect(gone.body.details.applicationError.code).toBe('DISCOUNT_RULE_NOT_FOUND');

    const events = await eventsOf(t, r.id);
    expect(events.map((e) => `${e.entityFqdn} ${e.slug}`)).toEqual([
      'wix.ecom.discounts.v1.discount_rule created', 'wix.ecom.discounts.v1.discount_rule updated', 'wix.ecom.discounts.v1.discount_rule deleted',
    ]);
  });

  it('derives PENDING and EXPIRED from the active window', async () => {
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const past = new Date(Date.now() - 86_400_000).toISOString();
    const pending = await call(t.url, '/ecom/v1/discount-rules', { ...asOwner(t), body: { discountRule: rule({ name: 'later', activeTimeInfo: { start: future } }) } });
    expect(pending.body.discountRule.status).toBe('PENDING');
    const expired = await call(t.url, '/ecom/v1/discount-rules', { ...asOwner(t), body: { discountRule: rule({ name: 'over', activeTimeInfo: { start: '2020-01-01T00:00:00Z', end: past } }) } });
    expect(expired.body.discountRule.status).toBe('EXPIRED');
    expect(expired.body.discountRule.activeTimeInfo).toEqual({ start: '2020-01-01T00:00:00.000Z', end: past });
  });

  it('refuses bad rules with field violations and stores nothing', async () => {
    const before = await ruleCount();
    const cases: [Record<string, unknown>, string, string][] = [
      [rule({ name: '' }), 'discountRule.name', 'MIN_LENGTH'],
      [rule({ discounts: { values: [] } }), 'discountRule.discounts.values', 'MIN_SIZE'],
      [rule({ discounts: { values: [{ targetType: 'GLOBAL', discountType: 'PERCENTAGE', percentage: 150 }] } }), 'discountRule.discounts.values[0].percentage', 'MAX'],
      [rule({ discounts: { values: [{ targetType: 'GLOBAL', discountType: 'FIXED_AMOUNT' }] } }), 'discountRule.discounts.values[0].fixedAmount', 'REQUIRED_FIELD'],
      [rule({ discounts: { values: [{ targetType: 'GLOBAL', discountType: 'FIXED_AMOUNT', fixedAmount: '1.234' }] } }), 'discountRule.discounts.values[0].fixedAmount', 'FORMAT'],
      [rule({ trigger: { triggerType: 'AND' } }), 'discountRule.trigger.and', 'REQUIRED_FIELD'],
      [rule({ activeTimeInfo: { start: '2030-01-02T00:00:00Z', end: '2030-01-01T00:00:00Z' } }), 'discountRule.activeTimeInfo.end', 'FORMAT'],
      [rule({ status: 'LIVE', unknownField: 1 }), 'discountRule.unknownField', 'FIELD_NOT_ALLOWED'],
    ];
    for (const [body, field, ruleName] of cases) {
      const res = await call(t.url, '/ecom/v1/discount-rules', { ...asOwner(t), body: { discountRule: body } });
      expect(res.status, JSON.stringify(body)).toBe(400);
      const v = res.body.details.validationError.fieldViolations;
      expect(v.map((x: { field: string }) => x.field), JSON.stringify(v)).toContain(field);
      expect(v.find((x: { field: string }) => x.field === field).violatedRule, JSON.stringify(v)).toBe(ruleName);
    }
    expect(await ruleCount()).toBe(before);
  });

  it('queries with filter, sort and cursor paging', async () => {
    for (const name of ['q-a', 'q-b', 'q-c']) await call(t.url, '/ecom/v1/discount-rules', { ...asOwner(t), body: { discountRule: rule({ name }) } });
    const first = await call(t.url, '/ecom/v1/discount-rules/query', {
      ...asOwner(t), body: { query: { filter: { name: { $startsWith: 'q-' } }, sort: [{ fieldName: 'name', order: 'DESC' }], cursorPaging: { limit: 2 } } },
    });
    expect(first.status).toBe(200);
    expect(first.body.discountRules.map((r: { name: string }) => r.name)).toEqual(['q-c', 'q-b']);
    expect(first.body.pagingMetadata).toMatchObject({ count: 2, hasNext: true });
    const second = await call(t.url, '/ecom/v1/discount-rules/query', { ...asOwner(t), body: { query: { cursorPaging: { cursor: first.body.pagingMetadata.cursors.next } } } });
    expect(second.body.discountRules.map((r: { name: string }) => r.name)).toEqual(['q-a']);
    expect(second.body.pagingMetadata).toMatchObject({ count: 1, hasNext: false, cursors: { next: null } });

    const badField = await call(t.url, '/ecom/v1/discount-rules/query', { ...asOwner(t), body: { query: { filter: { secret: 1 } } } });
    expect(badField.status).toBe(400);
    expect(badField.body.details.validationError.fieldViolations[0]).toMatchObject({ field: 'query.filter.secret', violatedRule: 'FIELD_NOT_ALLOWED' });
    const tooBig = await call(t.url, '/ecom/v1/discount-rules/query', { ...asOwner(t), body: { query: { cursorPaging: { limit: 101 } } } });
    expect(tooBig.status).toBe(400);
    const forged = await call(t.url, '/ecom/v1/discount-rules/query', { ...asOwner(t), body: { query: { cursorPaging: { cursor: 'abc.def' } } } });
    expect(forged.status).toBe(400);
    expect(forged.body.details.validationError.fieldViolations[0].field).toBe('query.cursorPaging.cursor');
  });

  it('a repeated create with the same Idempotency-Key answers the first rule and stores one', async () => {
    const before = await ruleCount();
    const headers = { 'idempotency-key': 'rule-create-once' };
    const first = await call(t.url, '/ecom/v1/discount-rules', { ...asOwner(t), headers, body: { discountRule: rule({ name: 'once' }) } });
    const again = await call(t.url, '/ecom/v1/discount-rules', { ...asOwner(t), headers, body: { discountRule: rule({ name: 'once' }) } });
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await ruleCount()).toBe(before + 1);
  });

  it('refuses visitors and members on reads and writes, and changes nothing', async () => {
    const before = await ruleCount();
    const visitor = (await visitorTokens(t)).accessToken;
    const member = (await memberWithToken(t, { loginEmail: 'dr-member@example.com' })).token;
    for (const auth of [visitor, member]) {
      const write = await call(t.url, '/ecom/v1/discount-rules', { auth, siteId: t.site.id, body: { discountRule: rule() } });
      expect(write.status).toBe(403);
      const read = await call(t.url, '/ecom/v1/discount-rules/query', { auth, siteId: t.site.id, body: {} });
      expect(read.status).toBe(403);
    }
    const anonymous = await call(t.url, '/ecom/v1/discount-rules', { siteId: t.site.id, body: { discountRule: rule() } });
    expect(anonymous.status).toBe(401);
    expect(await ruleCount()).toBe(before);
  });
});
