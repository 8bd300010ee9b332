import { ValidationError, type FieldViolation } from '../../http/errors.js';
import type { PaymentCard } from './model.js';

/** Card number length bounds (ISO/IEC 7812 primary account numbers). */
export const CARD_NUMBER_MIN_DIGITS = 12;
export const CARD_NUMBER_MAX_DIGITS = 19;
/** Latest expiry year accepted (a typo like 2926 is refused, not charged). */
export const CARD_MAX_YEARS_AHEAD = 30;

/** The card number's digits (spaces and dashes as people type them are dropped). */
export function cardDigits(number: string): string {
  return number.replace(/[\s-]/g, '');
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * A card that cannot be charged at all (malformed number, failed check digit, past expiry, bad CVC) is
 * bad input: a 400 naming the field, and nothing is recorded. `prefix` is the card's field path.
 */
export function assertChargeableCard(card: PaymentCard, now: Date, prefix = 'card'): PaymentCard {
  const violations: FieldViolation[] = [];
  const digits = cardDigits(card.number);
  if (!/^\d+$/.test(digits) || digits.length < CARD_NUMBER_MIN_DIGITS || digits.length > CARD_NUMBER_MAX_DIGITS) {
    violations.push({ field: `${prefix}.number`, description: `must be ${CARD_NUMBER_MIN_DIGITS} to ${CARD_NUMBER_MAX_DIGITS} digits`, violatedRule: 'FORMAT', data: {} });
  } else if (!luhnValid(digits)) {
    violations.push({ field: `${prefix}.number`, description: 'is not a valid card number', violatedRule: 'FORMAT', data: {} });
  }
  if (!/^\d{3,4}$/.test(card.cvc)) {
    violations.push({ field: `${prefix}.cvc`, description: 'must be 3 or 4 digits', violatedRule: 'FORMAT', data: {} });
  }
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  if (!Number.isInteger(card.expMonth) || card.expMonth < 1 || card.expMonth > 12) {
    violations.push({ field: `${prefix}.expMonth`, description: 'must be a month from 1 to 12', violatedRule: 'FORMAT', data: {} });
  }
  if (!Number.isInteger(card.expYear)) {
    violations.push({ field: `${prefix}.expYear`, description: 'must be a year', violatedRule: 'FORMAT', data: {} });
  } else if (card.expYear < year || (card.expYear === year && card.expMonth < month)) {
    violations.push({ field: `${prefix}.expYear`, description: 'the card has expired', violatedRule: 'MIN', data: {} });
  } else if (card.expYear > year + CARD_MAX_YEARS_AHEAD) {
    violations.push({ field: `${prefix}.expYear`, description: `must be at most ${year + CARD_MAX_YEARS_AHEAD}`, violatedRule: 'MAX', data: {} });
  }
  if (violations.length > 0) throw new ValidationError(violations);
  return { ...card, number: digits };
}

/** The brand shown on the payment (first digits only; good enough for display). */
export function cardBrand(digits: string): string {
  if (digits.startsWith('4')) return 'Visa';
  if (/^5[1-5]/.test(digits) || /^2[2-7]/.test(digits)) return 'Mastercard';
  if (/^3[47]/.test(digits)) return 'Amex';
  return 'Card';
}
