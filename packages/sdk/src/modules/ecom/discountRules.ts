/**
 * Automatic discount rules (`@vitrine/sdk/ecom` -> `discountRules`), after the public ecom
 * discountRules module: same call names and argument order. Elevated (owner API key or app) for every
 * call. Rules: docs/pricing-setup.md.
 */
import type * as wire from '@vitrine/types/ecom-rules';
import { defineMethod } from '../../define.js';
import { cursorQuery } from '../../query/cursor.js';
import type { FromWire } from '../../wire-types.js';

type D = 'createdDate' | 'updatedDate' | 'start' | 'end';
export type DiscountRule = FromWire<wire.DiscountRule, D>;
export type DiscountRuleInput = Omit<FromWire<wire.DiscountRuleInput, D>, 'activeTimeInfo'> & { activeTimeInfo?: { start?: Date | string | null; end?: Date | string | null } | null };

const P = '/ecom/v1/discount-rules';
const DATES = ['createdDate', 'updatedDate', 'activeTimeInfo.start', 'activeTimeInfo.end'];
const ONE = { dates: DATES.map((d) => `discountRule.${d}`) };
const ARG = { discountRuleId: '_id' } as const;

/** `discountRules.createDiscountRule(discountRule)` -> the rule. Elevated. */
export const createDiscountRule = defineMethod(async (client, discountRule: DiscountRuleInput) =>
  (await client.request<{ discountRule: DiscountRule }>({ method: 'POST', path: P, payload: { discountRule }, decode: ONE })).discountRule);

/** `discountRules.getDiscountRule(discountRuleId)` -> the rule. Elevated. */
export const getDiscountRule = defineMethod(async (client, discountRuleId: string) =>
  (await client.request<{ discountRule: DiscountRule }>({ method: 'GET', path: `${P}/${encodeURIComponent(discountRuleId)}`, payload: { discountRuleId }, decode: ONE, argumentFields: ARG })).discountRule);

/** `discountRules.updateDiscountRule(_id, { revision, ...changes })` -> the rule. Elevated. */
export const updateDiscountRule = defineMethod(async (client, _id: string, discountRule: DiscountRuleInput & { revision: string }) =>
  (await client.request<{ discountRule: DiscountRule }>({ method: 'PATCH', path: `${P}/${encodeURIComponent(_id)}`, payload: { discountRule: { ...discountRule, _id } }, decode: ONE })).discountRule);

/** `discountRules.deleteDiscountRule(discountRuleId)`. Elevated. */
export const deleteDiscountRule = defineMethod(async (client, discountRuleId: string): Promise<void> => {
  await client.request({ method: 'DELETE', path: `${P}/${encodeURIComponent(discountRuleId)}`, payload: { discountRuleId }, argumentFields: ARG });
});

type Field = '_id' | 'revision' | '_createdDate' | '_updatedDate' | 'active' | 'name' | 'activeTimeInfo.start' | 'activeTimeInfo.end';

/** `discountRules.queryDiscountRules().eq('active', true).limit(20).find()` (cursor paging). Elevated. */
export const queryDiscountRules = defineMethod((client) =>
  cursorQuery<DiscountRule, Field>(async (query) => {
    const res = await client.request<{ discountRules?: DiscountRule[]; pagingMetadata?: wire.QueryDiscountRulesResponse['pagingMetadata'] }>({
      method: 'POST', path: `${P}/query`, payload: { query }, decode: { dates: DATES.map((d) => `discountRules.${d}`) },
    });
    return { items: res.discountRules ?? [], cursors: res.pagingMetadata?.cursors ?? {}, hasNext: res.pagingMetadata?.hasNext ?? false };
  }));
