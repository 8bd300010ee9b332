import type { RequestContext } from '../../../http/context.js';
import { ValidationError } from '../../../http/errors.js';
import { calculatePricing, currencyOf, parseMoney, PricingInputError, type PricingInput } from '../pricing/index.js';
import { STORES_APP_ID } from '../model.js';

/**
 * What the owner saves must price: amounts in the site's currency scale, ranges that rise, rates of at
 * most 1. Rather than restate the engine's rules, a write runs the engine once over a one-line cart with
 * the new configuration and turns its input error into a field violation of the request, so a stored
 * rule can never make a later cart fail.
 */

const PROBE_LINE = {
  id: 'probe', quantity: 1, price: '1', itemType: 'PHYSICAL' as const,
  catalogReference: { catalogItemId: 'probe', appId: STORES_APP_ID }, physicalProperties: { weight: 1, shippable: true },
};

/** Runs the engine over `config`; an input error at `from` (e.g. `discountRules[0]`) is reported under `to` (e.g. `discountRule`). */
export function checkWithEngine(ctx: RequestContext, config: Partial<PricingInput>, from: string, to: string): void {
  try {
    calculatePricing({ currency: ctx.site.currency, now: new Date().toISOString(), lineItems: [PROBE_LINE], ...config });
  } catch (error) {
    if (error instanceof PricingInputError) {
      const field = error.field.startsWith(from) ? to + error.field.slice(from.length) : to;
      throw new ValidationError([{ field, description: error.description, violatedRule: error.violations[0]?.violatedRule ?? 'FORMAT', data: {} }]);
    }
    throw error;
  }
}

/** An amount valid in the site's currency (scale, sign); the violation names `field`. */
export function checkMoney(ctx: RequestContext, amount: string | null | undefined, field: string): void {
  if (amount == null) return;
  parseMoney(amount, currencyOf(ctx.site.currency), field);
}
