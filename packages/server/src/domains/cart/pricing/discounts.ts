/**
 * Discount eligibility and amounts. Eligibility (rule triggers, coupon minimums) is always judged on the
 * undiscounted cart, so one discount never switches another on or off; amounts are then taken one after
 * another from what is left of each line, so no line ever goes below zero.
 */
import { PricingInputError } from './errors.js';
import { boundedCount, isoInstant, readDiscountAmount, type DiscountAmount, type Line } from './lines.js';
import { allocate, applyRate, max, min, parseMoney, sum, type Currency, type RoundingMode } from './money.js';
import type { DiscountRuleInput, DiscountTargetType, DiscountTrigger, DiscountValue, Scope } from './model.js';

export const MAX_DISCOUNT_RULES = 500;
export const DISCOUNT_TARGETS: readonly DiscountTargetType[] = ['GLOBAL', 'SPECIFIC_ITEMS', 'SHIPPING'];
export const MAX_DISCOUNT_VALUES = 20;
export const MAX_TRIGGER_DEPTH = 5;
export const MAX_TRIGGERS_PER_COMBINATION = 20;

/** What is left of each priced line after the discounts applied so far. */
export type Remaining = Map<string, bigint>;

export function scopeMatches(scopes: readonly Scope[] | null | undefined, line: Line): boolean {
  if (!scopes || scopes.length === 0) return true;
  return scopes.some((scope) => {
    // Custom filters belong to other apps; we cannot evaluate them, so they match nothing.
    if (scope.type !== 'CATALOG_ITEM' || !scope.catalogItemFilter) return false;
    const { catalogAppId, catalogItemIds } = scope.catalogItemFilter;
    if (line.appId !== catalogAppId) return false;
    return !catalogItemIds || catalogItemIds.length === 0 || catalogItemIds.some((id) => line.catalogItemIds.includes(id));
  });
}

export interface TriggerContext { lines: readonly Line[]; memberId: string | null; currency: Currency }

export function triggerMatches(trigger: DiscountTrigger | null | undefined, ctx: TriggerContext, field: string, depth = 0): boolean {
  if (!trigger) return true;
  if (depth > MAX_TRIGGER_DEPTH) throw new PricingInputError(field, `triggers nest at most ${MAX_TRIGGER_DEPTH} deep`, 'MAX');
  const children = (list: DiscountTrigger[] | undefined, name: string): DiscountTrigger[] => {
    if (!list || list.length === 0) throw new PricingInputError(`${field}.${name}.triggers`, 'must not be empty', 'MIN_SIZE');
    if (list.length > MAX_TRIGGERS_PER_COMBINATION) throw new PricingInputError(`${field}.${name}.triggers`, `must have at most ${MAX_TRIGGERS_PER_COMBINATION} triggers`, 'MAX_SIZE');
    return list;
  };
  switch (trigger.triggerType) {
    case 'AND':
      return children(trigger.and?.triggers, 'and').every((t, i) => triggerMatches(t, ctx, `${field}.and.triggers[${i}]`, depth + 1));
    case 'OR':
      return children(trigger.or?.triggers, 'or').some((t, i) => triggerMatches(t, ctx, `${field}.or.triggers[${i}]`, depth + 1));
    case 'SUBTOTAL_RANGE': {
      const range = trigger.subtotalRange ?? {};
      const subtotal = sum(ctx.lines.filter((l) => l.priced && scopeMatches(range.scopes, l)).map((l) => l.base));
      const from = range.from == null ? null : parseMoney(range.from, ctx.currency, `${field}.subtotalRange.from`);
      const to = range.to == null ? null : parseMoney(range.to, ctx.currency, `${field}.subtotalRange.to`);
      return (from === null || subtotal >= from) && (to === null || subtotal <= to);
    }
    case 'ITEM_QUANTITY_RANGE': {
      const range = trigger.itemQuantityRange ?? {};
      const quantity = sum(ctx.lines.filter((l) => l.priced && scopeMatches(range.scopes, l)).map((l) => l.quantity));
      const from = range.from == null ? null : boundedCount(range.from, `${field}.itemQuantityRange.from`, 0, Number.MAX_SAFE_INTEGER);
      const to = range.to == null ? null : boundedCount(range.to, `${field}.itemQuantityRange.to`, 0, Number.MAX_SAFE_INTEGER);
      return (from === null || quantity >= from) && (to === null || quantity <= to);
    }
    case 'CUSTOMER_ELIGIBILITY':
      return ctx.memberId !== null && (trigger.customerEligibility?.individualMembersInfo?.memberIds ?? []).includes(ctx.memberId);
    case 'CUSTOM':
      // Custom triggers are answered by another app's service plugin; without one the rule does not fire.
      return false;
    default:
      throw new PricingInputError(`${field}.triggerType`, 'is not a known trigger type', 'INVALID_ENUM_VALUE');
  }
}

export function ruleIsLive(rule: DiscountRuleInput, nowMs: number, field: string): boolean {
  if (rule.active === false) return false;
  const start = rule.activeTimeInfo?.start;
  const end = rule.activeTimeInfo?.end;
  if (start && isoInstant(start, `${field}.activeTimeInfo.start`) > nowMs) return false;
  if (end && isoInstant(end, `${field}.activeTimeInfo.end`) <= nowMs) return false;
  return true;
}

/**
 * Takes one discount off the item lines in `targets`. `perLine` prices each line on its own (item
 * discounts: a fixed amount or fixed price is per unit); otherwise the discount is computed once on the
 * targets' total and split back over them in proportion to what is left of each (largest remainder).
 */
export function discountLines(amount: DiscountAmount, targets: readonly Line[], remaining: Remaining, perLine: boolean, mode: RoundingMode): Map<string, bigint> {
  const left = (l: Line) => remaining.get(l.id) ?? 0n;
  let taken: Map<string, bigint>;
  if (perLine) {
    taken = new Map(targets.map((l) => [l.id, lineDiscount(amount, left(l), l.quantity, mode)]));
  } else {
    const total = lineDiscount(amount, sum(targets.map(left)), 1n, mode);
    taken = allocate(total, targets.map((l) => ({ key: l.id, weight: left(l), order: l.order })));
  }
  for (const [id, value] of taken) remaining.set(id, (remaining.get(id) ?? 0n) - value);
  return taken;
}

/**
 * A discount limited to one item: taken off a single unit of the target line with the highest unit
 * price left (ties go to the allocation order, so the result does not depend on the order of lines).
 * A unit's share of a line that earlier discounts left uneven is the floor of an equal split.
 */
export function discountOneUnit(amount: DiscountAmount, targets: readonly Line[], remaining: Remaining, mode: RoundingMode): Map<string, bigint> {
  const unitLeft = (l: Line) => (remaining.get(l.id) ?? 0n) / l.quantity;
  let best: Line | undefined;
  for (const l of targets) {
    if (l.quantity <= 0n) continue;
    if (!best || unitLeft(l) > unitLeft(best) || (unitLeft(l) === unitLeft(best) && l.order < best.order)) best = l;
  }
  if (!best) return new Map();
  const value = lineDiscount(amount, unitLeft(best), 1n, mode);
  remaining.set(best.id, (remaining.get(best.id) ?? 0n) - value);
  return new Map([[best.id, value]]);
}

/** The discount on a base that covers `units` units; never more than the base, never negative. */
export function lineDiscount(amount: DiscountAmount, base: bigint, units: bigint, mode: RoundingMode): bigint {
  switch (amount.type) {
    case 'PERCENTAGE': return min(base, applyRate(base, amount.rate, mode));
    case 'FIXED_AMOUNT': return min(base, amount.amount * units);
    case 'FIXED_PRICE': return max(0n, base - amount.amount * units);
  }
}

/** Rule values in the order they are applied within one stage: fixed prices, then percentages, then fixed amounts; ties by rule id. */
const TYPE_ORDER: Record<DiscountAmount['type'], number> = { FIXED_PRICE: 0, PERCENTAGE: 1, FIXED_AMOUNT: 2 };

export interface LiveRuleValue { rule: DiscountRuleInput; value: DiscountValue; amount: DiscountAmount; valueIndex: number }

export function liveRuleValues(rules: readonly DiscountRuleInput[], ctx: TriggerContext, nowMs: number): LiveRuleValue[] {
  if (rules.length > MAX_DISCOUNT_RULES) throw new PricingInputError('discountRules', `must have at most ${MAX_DISCOUNT_RULES} rules`, 'MAX_SIZE');
  const ids = new Set<string>();
  const out: LiveRuleValue[] = [];
  rules.forEach((rule, r) => {
    const field = `discountRules[${r}]`;
    if (ids.has(rule.id)) throw new PricingInputError(`${field}.id`, 'must be unique');
    ids.add(rule.id);
    const values = rule.discounts?.values ?? [];
    if (values.length > MAX_DISCOUNT_VALUES) throw new PricingInputError(`${field}.discounts.values`, `must have at most ${MAX_DISCOUNT_VALUES} values`, 'MAX_SIZE');
    // Amounts are read even for rules that do not fire, so a malformed rule fails the same way every time.
    const amounts = values.map((value, v) => readDiscountAmount(value, ctx.currency, `${field}.discounts.values[${v}]`));
    values.forEach((value, v) => {
      if (!DISCOUNT_TARGETS.includes(value.targetType)) {
        throw new PricingInputError(`${field}.discounts.values[${v}].targetType`, 'must be GLOBAL, SPECIFIC_ITEMS or SHIPPING', 'INVALID_ENUM_VALUE');
      }
      if (value.targetType === 'SPECIFIC_ITEMS' && !value.specificItemsInfo?.scopes?.length) {
        throw new PricingInputError(`${field}.discounts.values[${v}].specificItemsInfo.scopes`, 'is required for SPECIFIC_ITEMS', 'REQUIRED_FIELD');
      }
    });
    if (!ruleIsLive(rule, nowMs, field) || !triggerMatches(rule.trigger, ctx, `${field}.trigger`)) return;
    values.forEach((value, valueIndex) => out.push({ rule, value, amount: amounts[valueIndex]!, valueIndex }));
  });
  return out.sort((a, b) =>
    TYPE_ORDER[a.amount.type] - TYPE_ORDER[b.amount.type] || (a.rule.id < b.rule.id ? -1 : a.rule.id > b.rule.id ? 1 : 0) || a.valueIndex - b.valueIndex);
}
