import { z } from 'zod';

/**
 * Zod schemas for the wire's value encodings (contracts/wire.md "Requests"). Use them in domain
 * schemas so every route decodes the same way.
 */

/** A float that may arrive as "NaN", "Infinity" or "-Infinity". */
export const wireNumber = z.union([
  z.number(),
  z.enum(['NaN', 'Infinity', '-Infinity']).transform((s) => Number(s)),
]);

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** An ISO-8601 timestamp, decoded to a Date. */
export const wireDate = z.string().regex(ISO_DATE_TIME, 'must be an ISO-8601 date-time').transform((s, ctx) => {
  const date = new Date(s);
  if (Number.isNaN(date.getTime())) {
    ctx.addIssue({ code: 'custom', message: 'must be a valid date', params: { rule: 'FORMAT' } });
    return z.NEVER;
  }
  return date;
});

/** Largest number of decimal places a money amount may carry. */
export const MONEY_MAX_SCALE = 4;

/** A money amount as a decimal string ("10.00"); kept as text so no float rounding creeps in. */
export const decimalString = z.string().max(32).superRefine((s, ctx) => {
  const match = /^-?\d+(?:\.(\d+))?$/.exec(s);
  if (!match) {
    ctx.addIssue({ code: 'custom', message: 'must be a decimal number as text, like "10.00"', params: { rule: 'FORMAT' } });
  } else if ((match[1]?.length ?? 0) > MONEY_MAX_SCALE) {
    ctx.addIssue({ code: 'custom', message: `must have at most ${MONEY_MAX_SCALE} decimal places`, params: { rule: 'DECIMAL_MAX_SCALE', data: { maxScale: MONEY_MAX_SCALE } } });
  }
});

/** An int64 value as text, within the range JavaScript numbers represent exactly. */
export const int64String = z.string().regex(/^-?\d{1,16}$/, 'must be an integer as text').refine((s) => Number.isSafeInteger(Number(s)), {
  message: 'must be between -(2^53 - 1) and 2^53 - 1',
  params: { rule: 'MAX' },
});
