import { ValidationError, type ViolatedRule } from '../../../http/errors.js';

/**
 * A pricing input the engine cannot price (malformed amount, duplicate line id, bound exceeded). The
 * engine is pure, so it throws; being a ValidationError, a route that lets it escape answers 400 with
 * the field violation, and nothing was changed.
 */
export class PricingInputError extends ValidationError {
  constructor(readonly field: string, readonly description: string, rule: ViolatedRule = 'FORMAT') {
    super([{ field, description, violatedRule: rule, data: {} }]);
    this.name = 'PricingInputError';
  }
}
