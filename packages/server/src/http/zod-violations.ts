import type { z } from 'zod';
import { ValidationError, type FieldViolation, type ViolatedRule } from './errors.js';

type Issue = z.core.$ZodIssue & { input?: unknown };

/** Turns zod issues into wire field violations; `prefix` names the argument the fields sit under. */
export function violationsFromZod(issues: readonly Issue[], prefix = ''): ValidationError {
  const seen = new Set<string>();
  const violations: FieldViolation[] = [];
  for (const issue of issues) {
    for (const v of toViolations(issue, prefix)) {
      const key = `${v.field}\u0000${v.violatedRule}`;
      if (seen.has(key)) continue;
      seen.add(key);
      violations.push(v);
    }
  }
  return new ValidationError(violations);
}

function fieldName(path: readonly PropertyKey[], prefix: string): string {
  const parts = path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p)));
  const joined = parts.reduce((acc, part) => (part.startsWith('[') ? acc + part : acc ? `${acc}.${part}` : part), '');
  return prefix && joined ? `${prefix}.${joined}` : prefix || joined || '$root';
}

function toViolations(issue: Issue, prefix: string): FieldViolation[] {
  const field = fieldName(issue.path, prefix);
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? [{ field, description: 'is required', violatedRule: 'REQUIRED_FIELD', data: {} }]
        : [{ field, description: `must be ${article(issue.expected)}`, violatedRule: 'FORMAT', data: { expected: issue.expected } }];
    case 'too_big': {
      const rule = sizeRule(issue.origin, 'MAX');
      return [{ field, description: `must be at most ${String(issue.maximum)}${unit(issue.origin)}`, violatedRule: rule, data: { max: Number(issue.maximum) } }];
    }
    case 'too_small': {
      const rule = sizeRule(issue.origin, 'MIN');
      if (rule === 'MIN_LENGTH' && Number(issue.minimum) === 1) {
        return [{ field, description: 'must not be empty', violatedRule: 'MIN_LENGTH', data: { min: 1 } }];
      }
      // An exclusive bound (`gt`) refuses the bound itself: "more than 0", not "at least 0".
      const bound = issue.inclusive === false ? 'more than' : 'at least';
      return [{ field, description: `must be ${bound} ${String(issue.minimum)}${unit(issue.origin)}`, violatedRule: rule, data: { min: Number(issue.minimum) } }];
    }
    case 'invalid_value':
      return [{ field, description: `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`, violatedRule: 'INVALID_ENUM_VALUE', data: { allowed: issue.values.map(String) } }];
    case 'unrecognized_keys':
      return issue.keys.map((key) => ({ field: fieldName([...issue.path, key], prefix), description: 'is not allowed', violatedRule: 'FIELD_NOT_ALLOWED' as const, data: {} }));
    case 'invalid_format':
      return [{ field, description: issue.message || `must be a valid ${issue.format}`, violatedRule: 'FORMAT', data: { format: issue.format } }];
    case 'custom': {
      const params = (issue.params ?? {}) as { rule?: ViolatedRule; data?: Record<string, unknown> };
      return [{ field, description: issue.message, violatedRule: params.rule ?? 'FORMAT', data: params.data ?? {} }];
    }
    case 'invalid_union': {
      // A oneOf: report the first branch's problems when it got furthest, else a generic format error.
      return [{ field, description: issue.message === 'Invalid input' ? 'has an invalid shape' : issue.message, violatedRule: 'FORMAT', data: {} }];
    }
    default:
      return [{ field, description: issue.message, violatedRule: 'FORMAT', data: {} }];
  }
}

function sizeRule(origin: string, side: 'MAX' | 'MIN'): ViolatedRule {
  if (origin === 'string') return side === 'MAX' ? 'MAX_LENGTH' : 'MIN_LENGTH';
  if (origin === 'array' || origin === 'set') return side === 'MAX' ? 'MAX_SIZE' : 'MIN_SIZE';
  return side;
}

function unit(origin: string): string {
  if (origin === 'string') return ' characters';
  if (origin === 'array' || origin === 'set') return ' items';
  return '';
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}
