import { ValidationError, type ViolatedRule } from '../http/errors.js';
import { FilterError, type FilterProblem } from './filter.js';

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

/** A refused filter or sort as a wire field violation under the caller's argument (e.g. `query`). */
export function filterViolation(error: FilterError, argument: string): ValidationError {
  return new ValidationError([{ field: `${argument}.${error.path}`, description: error.message, violatedRule: RULE[error.problem], data: { problem: error.problem } }]);
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
