import { ValidationError, type FieldViolation } from './errors.js';

/**
 * The wire-level text rule: no request value may hold a NUL character (U+0000) or an unpaired UTF-16
 * surrogate. PostgreSQL text cannot store the first and refuses the second as invalid UTF-8, so they
 * would surface as 500s deep in a handler; SQLite would store them silently. Refused here, once, for
 * every route, before any handler runs. Stricter rules for identifiers (controls, bidi characters)
 * live in `wire-schemas.ts` (`identifier`).
 */

export type TextProblem = 'NUL_CHARACTER' | 'UNPAIRED_SURROGATE';

/** How many offending fields one answer names at most (the walk stops there). */
export const TEXT_GUARD_MAX_VIOLATIONS = 20;

/** A NUL or any surrogate; the exact check below tells a paired surrogate (emoji) from an unpaired one. */
// eslint-disable-next-line no-control-regex -- finding NUL is the point of this pattern
const SUSPECT = /[\u0000\uD800-\uDFFF]/;

/**
 * In raw JSON text both can only arrive as `\u` escapes: JSON.parse refuses a raw control character
 * inside a string, and text decoded from UTF-8 never holds a lone surrogate. A body without such an
 * escape is clean without being walked (the common case: one regex scan per body).
 */
const SUSPECT_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;

/** The problem of one string, or undefined when it is clean. */
export function textProblem(s: string): TextProblem | undefined {
  if (!SUSPECT.test(s)) return undefined;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0) return 'NUL_CHARACTER';
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return 'UNPAIRED_SURROGATE';
    }
    if (c >= 0xdc00 && c <= 0xdfff) return 'UNPAIRED_SURROGATE';
  }
  return undefined;
}

/** Whether raw JSON text may hold a NUL or surrogate once parsed (false: certainly clean). */
export function jsonTextMayHoldBadText(text: string): boolean {
  return SUSPECT_ESCAPE.test(text);
}

/** The description of an identifier-rule violation (wire-schemas.ts `identifier` uses the same). */
export const IDENTIFIER_DESCRIPTION = 'must not contain control, bidirectional or invisible format characters';

const DESCRIPTIONS: Record<TextProblem, string> = {
  NUL_CHARACTER: 'must not contain a NUL character (U+0000)',
  UNPAIRED_SURROGATE: 'must not contain an unpaired UTF-16 surrogate',
};

/** A field name as violations print it; an offending key is shown with its bad characters escaped. */
function keyForPath(key: string): string {
  // eslint-disable-next-line no-control-regex -- NUL is escaped so the violation can name the key
  return textProblem(key) ? key.replace(/[\u0000\uD800-\uDFFF]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`) : key;
}

function join(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent || '$root'}[${key}]`;
  return parent ? `${parent}.${keyForPath(key)}` : keyForPath(key);
}

/**
 * Walks a decoded value (JSON body, `.r` payload, query fields, path parameters) and returns a
 * violation for each string or object key holding bad text, under the field path the route's schema
 * would report (`product.name`, `items[0].data.title`). Iterative, so deep nesting cannot overflow the
 * stack. `root` names the value itself when it is a bare string (a path parameter).
 */
export function findBadText(value: unknown, root = ''): FieldViolation[] {
  const found: FieldViolation[] = [];
  const report = (field: string, problem: TextProblem) => {
    found.push({ field: field || '$root', description: DESCRIPTIONS[problem], violatedRule: 'FORMAT', data: { reason: problem } });
  };
  const stack: { value: unknown; path: string }[] = [{ value, path: root }];
  while (stack.length > 0 && found.length < TEXT_GUARD_MAX_VIOLATIONS) {
    const { value: node, path } = stack.pop()!;
    if (typeof node === 'string') {
      const problem = textProblem(node);
      if (problem) report(path, problem);
    } else if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push({ value: node[i], path: join(path, i) });
    } else if (node !== null && typeof node === 'object') {
      for (const key of Object.keys(node).reverse()) {
        const keyProblem = textProblem(key);
        if (keyProblem) report(join(path, key), keyProblem);
        else stack.push({ value: (node as Record<string, unknown>)[key], path: join(path, key) });
      }
    }
  }
  return found;
}

/**
 * Characters no identifier (id, slug, key, collection id, field key, e-mail) may hold, besides the NUL
 * and unpaired surrogates every text refuses (above): C0 and C1 control characters and DEL,
 * bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E-200F, U+202A-202E,
 * U+2066-2069), and invisible format characters that make two ids look alike (soft hyphen, zero-width
 * characters, word joiner and invisible operators, line/paragraph separators, BOM, interlinear
 * annotation marks). Free text (names, descriptions, rich text) keeps newlines and tabs.
 */
// eslint-disable-next-line no-control-regex -- control characters are what identifiers refuse
const IDENTIFIER_FORBIDDEN = /[\u0000-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]/;

/** The first forbidden character of an identifier as `U+XXXX`, or undefined when it has none. */
export function identifierProblem(s: string): string | undefined {
  const match = IDENTIFIER_FORBIDDEN.exec(s);
  return match ? `U+${match[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : undefined;
}

/** Throws the wire's 400 when any of the given decoded sources holds bad text. */
export function assertCleanText(sources: readonly { value: unknown; root?: string }[]): void {
  const violations: FieldViolation[] = [];
  for (const source of sources) {
    if (violations.length >= TEXT_GUARD_MAX_VIOLATIONS) break;
    violations.push(...findBadText(source.value, source.root));
  }
  if (violations.length > 0) throw new ValidationError(violations.slice(0, TEXT_GUARD_MAX_VIOLATIONS));
}

/**
 * An identifier carried by a header (`wix-site-id`): the text rule and the identifier rule, reported
 * under the header's name. Node's HTTP parser already refuses NUL and most C0 controls in headers with
 * a bare 400; what reaches us is latin1-decoded, so C1 controls and U+00AD still can.
 */
export function assertCleanHeaderIdentifier(name: string, value: string): void {
  const problem = textProblem(value);
  if (problem) throw new ValidationError([{ field: name, description: DESCRIPTIONS[problem], violatedRule: 'FORMAT', data: { reason: problem } }]);
  const character = identifierProblem(value);
  if (character) throw new ValidationError([{ field: name, description: IDENTIFIER_DESCRIPTION, violatedRule: 'FORMAT', data: { reason: 'FORBIDDEN_CHARACTER', character } }]);
}
