/**
 * The discount-rule form's fields as typed, checked and turned into the rule's discount and trigger.
 * One place for the new-rule form and the edit dialog, so both name a typo the same way.
 */
import type { discountRules } from '@vitrine/sdk/ecom';
import { amountText, percentValue } from './money';

export type RuleKind = 'PERCENTAGE' | 'FIXED_AMOUNT';
export type RuleTarget = 'GLOBAL' | 'SHIPPING';

export interface RuleFields { target: RuleTarget; kind: RuleKind; value: string; minimum: string }

/** The rule's discount and trigger (null: every cart), or the first field in error. */
export function ruleTerms(f: RuleFields): { terms: Required<Pick<discountRules.DiscountRuleInput, 'discounts' | 'trigger'>> } | { error: string } {
  const percentage = f.kind === 'PERCENTAGE' ? percentValue(f.value) : undefined;
  const fixedAmount = f.kind === 'FIXED_AMOUNT' ? amountText(f.value) : undefined;
  if (percentage === undefined && fixedAmount === undefined) {
    return { error: f.kind === 'PERCENTAGE' ? 'Discount: a percentage above 0 and at most 100' : 'Discount: an amount such as 5 or 4.99' };
  }
  const from = f.minimum.trim() ? amountText(f.minimum) : undefined;
  if (f.minimum.trim() && from === undefined) return { error: 'Minimum subtotal: an amount such as 50 or 49.99' };
  return {
    terms: {
      trigger: from ? { triggerType: 'SUBTOTAL_RANGE', subtotalRange: { from } } : null,
      discounts: { values: [{ targetType: f.target, discountType: f.kind, ...(percentage !== undefined ? { percentage } : { fixedAmount }) }] },
    },
  };
}
