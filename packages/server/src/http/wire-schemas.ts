import { z } from 'zod';
import { findBadText, IDENTIFIER_DESCRIPTION, identifierProblem } from './text-guard.js';

export { identifierProblem };

/**
 * Zod schemas for the wire's value encodings (docs/api.md "Requests"). Use them in domain
 * schemas so every route decodes the same way.
 */

/** Longest e-mail address a mailer takes (RFC 5321's path limit less its brackets). */
export const EMAIL_MAX = 254;
const EMAIL = /^[^\s@<>,;:"()[\]\\]{1,64}@[^\s@<>,;:"()[\]\\.]+(?:\.[^\s@<>,;:"()[\]\\.]+)+$/u;

/**
 * An e-mail address: a local part, "@" and a domain of two labels at least, with nothing a mailer
 * would read as a second recipient or a comment, and the identifier rule's characters only. One rule
 * for every e-mail field of the API.
 */
export const emailAddress = (max: number = EMAIL_MAX) => identifier(max).regex(EMAIL, 'must be an e-mail address');

/** A float that may arrive as "NaN", "Infinity" or "-Infinity". */
export const wireNumber = z.union([
  z.number(),
  z.enum(['NaN', 'Infinity', '-Infinity']).transform((s) => Number(s)),
]);

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Whether an ISO-8601 text names a day the calendar has: `Date` reads 2024-02-30 as March 1st rather
 * than refusing it, so the day is checked against its month first.
 */
export function isCalendarDate(text: string): boolean {
  const [y, m, d] = [Number(text.slice(0, 4)), Number(text.slice(5, 7)), Number(text.slice(8, 10))];
  return m >= 1 && m <= 12 && d >= 1 && d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** An ISO-8601 date-time kept as text (a real day of the calendar). */
export const isoDateTimeText = z.string().regex(ISO_DATE_TIME, 'must be an ISO-8601 date-time')
  .refine((s) => !Number.isNaN(Date.parse(s)) && isCalendarDate(s), { message: 'must be a valid date', params: { rule: 'FORMAT' } });

/** An ISO-8601 timestamp, decoded to a Date. */
export const wireDate = z.string().regex(ISO_DATE_TIME, 'must be an ISO-8601 date-time').transform((s, ctx) => {
  const date = new Date(s);
  if (Number.isNaN(date.getTime()) || !isCalendarDate(s)) {
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

export const IDENTIFIER_MESSAGE = IDENTIFIER_DESCRIPTION;

/**
 * Adds the identifier rule to a zod issue list, for schemas that take `unknown` and leave other types
 * to their service; `path` names a spot below the refined value.
 */
export function checkIdentifier(value: unknown, ctx: z.RefinementCtx, path: (string | number)[] = []): void {
  if (typeof value !== 'string') return;
  const character = identifierProblem(value);
  if (character) ctx.addIssue({ code: 'custom', message: IDENTIFIER_MESSAGE, path, params: { rule: 'FORMAT', data: { reason: 'FORBIDDEN_CHARACTER', character } } });
}

/** The identifier rule on the keys of a plain object (field keys of a record); other values pass. */
export function checkKeys(value: unknown, ctx: z.RefinementCtx, path: (string | number)[] = []): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  for (const key of Object.keys(value)) checkIdentifier(key, ctx, [...path, key]);
}

/** An identifier string of at most `max` characters (and at least `min`, default 0). */
export function identifier(max: number, min = 0) {
  const base = min > 0 ? z.string().min(min).max(max) : z.string().max(max);
  return base.superRefine(checkIdentifier);
}

/**
 * The wire's text rule (text-guard.ts) for JSON carried inside a string (V1 catalog filters and sorts):
 * its escapes decode only when the schema parses it, after the wire layer looked. Each offending spot
 * becomes an issue under the string's field (`query.filter.name`).
 */
export function checkDecodedText(value: unknown, ctx: z.RefinementCtx): void {
  for (const v of findBadText(value)) {
    // The inner field path is one already-joined segment (zod-violations.ts joins segments with dots).
    const inner = v.field.startsWith('$root') ? v.field.slice('$root'.length) : v.field;
    // `continue`: the value's shape is sound, so a union holding this check reports these issues
    // instead of folding them into "invalid shape".
    ctx.addIssue({ code: 'custom', message: v.description, path: inner ? [inner] : [], params: { rule: v.violatedRule, data: v.data }, continue: true });
  }
}
