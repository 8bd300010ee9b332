import { ValidationError, type ViolatedRule } from './errors.js';
import { FilterError, type FilterProblem } from '../storage/filter.js';

const RULE: Record<FilterProblem, ViolatedRule> = {
  REGEX: 'FIELD_NOT_ALLOWED',
  CASE_SENSITIVE_MATCH: 'FIELD_NOT_ALLOWED',
  UNKNOWN_OPERATOR: 'FIELD_NOT_ALLOWED',
  UNKNOWN_FIELD: 'FIELD_NOT_ALLOWED',
  TOO_DEEP: 'MAX',
  TOO_MANY_CONDITIONS: 'MAX_SIZE',
  TOO_MANY_VALUES: 'MAX_SIZE',
  BAD_SHAPE: 'FORMAT',
  BAD_VALUE: 'FORMAT',
};

/**
 * Where a filter error sits in the caller's request. `error.path` starts at the filter or sort
 * (`filter.price`, `sort[0].fieldName`) or is already a full field name; `argument` names where that
 * sits (`query`, or the filter itself: `query.filter`, `condition.filter`).
 */
export function filterErrorField(error: FilterError, argument: string): string {
  const path = error.path;
  if (path === argument || path.startsWith(`${argument}.`) || path.startsWith(`${argument}[`)) return path;
  const last = argument.split('.').pop()!;
  if (path === last || path.startsWith(`${last}.`) || path.startsWith(`${last}[`)) return argument + path.slice(last.length);
  return `${argument}.${path}`;
}

/** A refused filter or sort as a wire field violation under the caller's argument (e.g. `query`). */
export function filterViolation(error: FilterError, argument: string): ValidationError {
  return new ValidationError([{ field: filterErrorField(error, argument), description: error.message, violatedRule: RULE[error.problem], data: { problem: error.problem } }]);
}

/** Runs `fn` (parsing and running a query), turning a FilterError into a validation error under `argument`. */
export async function withFilterErrors<T>(argument: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof FilterError) throw filterViolation(error, argument);
    throw error;
  }
}
