import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../../http/context.js';
import { conflict, notFound, violation } from '../../../http/errors.js';
import { inTransaction } from '../../../storage/transaction.js';
import { recordEvent } from '../../events/index.js';
import { checkWithEngine } from './engine-check.js';
import { DISCOUNT_RULE_FQDN } from './events.js';
import { MAX_DISCOUNT_RULES } from './limits.js';
import type { DiscountRuleInput, DiscountRuleRecord } from './model.js';
import { col, queryPage, type Listing, type Page } from './paging.js';
import { presentDiscountRule } from './present.js';
import { changedMeanwhile, expectRevision, isoUtc, samePathId } from './revision.js';
import type { QueryInput } from './schema.js';
import {
  countDiscountRules, deleteDiscountRuleRow, findDiscountRule, insertDiscountRule, listDiscountRuleRows, updateDiscountRuleRow,
} from './store.js';

/**
 * Automatic discount rules (ecom.discountRules): owner-written, applied by the cart to every buyer
 * whose cart meets the trigger while the rule is LIVE. Writes record `created` / `updated` /
 * `deleted` events in the same transaction.
 */

const ruleNotFound = (id: string) => notFound('DISCOUNT_RULE_NOT_FOUND', `Discount rule ${id} not found`, { discountRuleId: id });

function checkPrices(ctx: RequestContext, rule: DiscountRuleRecord): void {
  checkWithEngine(ctx, {
    discountRules: [{ id: rule.id, name: rule.name, active: true, trigger: rule.trigger, activeTimeInfo: null, discounts: rule.discounts }],
  }, 'discountRules[0]', 'discountRule');
}

function normalizedTime(input: DiscountRuleInput['activeTimeInfo']): DiscountRuleRecord['activeTimeInfo'] {
  if (!input) return null;
  const start = isoUtc(input.start);
  const end = isoUtc(input.end);
  return start || end ? { start, end } : null;
}

export async function createDiscountRule(ctx: RequestContext, input: DiscountRuleInput): Promise<DiscountRuleRecord> {
  if (!input.name) throw violation('discountRule.name', 'is required', 'REQUIRED_FIELD');
  if (!input.discounts) throw violation('discountRule.discounts', 'is required', 'REQUIRED_FIELD');
  const now = new Date().toISOString();
  const rule: DiscountRuleRecord = {
    id: randomUUID(), name: input.name, active: input.active ?? true, trigger: input.trigger ?? null,
    activeTimeInfo: normalizedTime(input.activeTimeInfo), discounts: input.discounts, usageCount: 0, revision: 1, createdDate: now, updatedDate: now,
  };
  checkPrices(ctx, rule);
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    if (await countDiscountRules(trx, ctx.site.id) >= MAX_DISCOUNT_RULES) {
      throw conflict('MAX_DISCOUNT_RULES_REACHED', `A site has at most ${MAX_DISCOUNT_RULES} discount rules`, { max: MAX_DISCOUNT_RULES });
    }
    await insertDiscountRule(trx, ctx.site.id, rule);
    await recordEvent(tctx, { entityFqdn: DISCOUNT_RULE_FQDN, slug: 'created', entityId: rule.id, entity: presentDiscountRule(rule) });
    return rule;
  });
}

export async function getDiscountRule(ctx: RequestContext, id: string): Promise<DiscountRuleRecord> {
  const rule = await findDiscountRule(ctx.db, ctx.site.id, id);
  if (!rule) throw ruleNotFound(id);
  return rule;
}

export async function updateDiscountRule(ctx: RequestContext, id: string, input: DiscountRuleInput): Promise<DiscountRuleRecord> {
  samePathId(input.id, id, 'discountRule.id');
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const current = await findDiscountRule(trx, ctx.site.id, id);
    if (!current) throw ruleNotFound(id);
    const expected = expectRevision(input.revision, current.revision, 'discountRule.revision');
    const next: DiscountRuleRecord = {
      ...current,
      name: input.name ?? current.name,
      active: input.active ?? current.active,
      trigger: input.trigger === undefined ? current.trigger : input.trigger,
      activeTimeInfo: input.activeTimeInfo === undefined ? current.activeTimeInfo : normalizedTime(input.activeTimeInfo),
      discounts: input.discounts ?? current.discounts,
      revision: current.revision + 1,
      updatedDate: new Date().toISOString(),
    };
    checkPrices(ctx, next);
    if (!(await updateDiscountRuleRow(trx, ctx.site.id, next, expected))) throw changedMeanwhile(id);
    await recordEvent(tctx, { entityFqdn: DISCOUNT_RULE_FQDN, slug: 'updated', entityId: id, entity: presentDiscountRule(next) });
    return next;
  });
}

export async function deleteDiscountRule(ctx: RequestContext, id: string): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    const current = await findDiscountRule(trx, ctx.site.id, id);
    if (!current || !(await deleteDiscountRuleRow(trx, ctx.site.id, id))) throw ruleNotFound(id);
    await recordEvent({ ...ctx, db: trx }, { entityFqdn: DISCOUNT_RULE_FQDN, slug: 'deleted', entityId: id, entity: presentDiscountRule(current) });
  });
}

const RULES: Listing<DiscountRuleRecord> = {
  kind: 'cart-rules.discount-rules',
  fields: {
    id: { expr: col('id'), type: 'string' },
    name: { expr: col('name'), type: 'string' },
    active: { expr: col('active'), type: 'boolean', storedAs01: true },
    revision: { expr: col('revision'), type: 'number' },
    'activeTimeInfo.start': { expr: col('start_date'), type: 'date' },
    'activeTimeInfo.end': { expr: col('end_date'), type: 'date' },
    createdDate: { expr: col('created_date'), type: 'date' },
    updatedDate: { expr: col('updated_date'), type: 'date' },
  },
  sortable: {
    id: col('id'), name: col('name'), active: col('active'), revision: col('revision'),
    'activeTimeInfo.start': col('start_date'), 'activeTimeInfo.end': col('end_date'), createdDate: col('created_date'), updatedDate: col('updated_date'),
  },
  idColumn: col('id'),
  defaultSort: [{ fieldName: 'createdDate', order: 'DESC' }],
  list: listDiscountRuleRows,
};

export function queryDiscountRules(ctx: RequestContext, query: QueryInput | undefined): Promise<Page<DiscountRuleRecord>> {
  return queryPage(ctx, RULES, query);
}
