/**
 * The two wire error shapes of docs/api.md. Services throw these; the HTTP layer renders them.
 * Anything else thrown becomes a 500 that names only the request id.
 */

export type ViolatedRule =
  | 'MAX' | 'MIN' | 'MAX_LENGTH' | 'MIN_LENGTH' | 'MAX_SIZE' | 'MIN_SIZE' | 'FORMAT'
  | 'DECIMAL_LT' | 'DECIMAL_GT' | 'DECIMAL_LTE' | 'DECIMAL_GTE' | 'DECIMAL_MAX_SCALE'
  | 'INVALID_ENUM_VALUE' | 'REQUIRED_FIELD' | 'FIELD_NOT_ALLOWED' | 'ONE_OF_ALIGNMENT'
  | 'EXACT_LENGTH' | 'EXACT_SIZE' | 'REQUIRED_ONE_OF_FIELD';

export interface FieldViolation {
  field: string;
  description: string;
  violatedRule: ViolatedRule;
  data: Record<string, unknown>;
}

export type HttpStatus = 400 | 401 | 403 | 404 | 409 | 412 | 413 | 428 | 429 | 500 | 501 | 503;

export type ErrorBody =
  | { message: string; details: { applicationError: { code: string; description: string; data: Record<string, unknown> } } }
  | { message: string; details: { validationError: { fieldViolations: FieldViolation[] } } };

export abstract class WireError extends Error {
  abstract readonly status: HttpStatus;
  abstract body(): ErrorBody;
  /** Extra response headers (Retry-After on 429). */
  headers: Record<string, string> = {};
}

/** A business error: `code` is upper snake case, or a `-19976` / `WDE0073` style code where the contract fixes one. */
export class ApplicationError extends WireError {
  constructor(
    readonly status: HttpStatus,
    readonly code: string,
    readonly description: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(description);
  }

  body(): ErrorBody {
    return { message: this.description, details: { applicationError: { code: this.code, description: this.description, data: this.data } } };
  }
}

/** Bad input: one violation per field, sorted by field name as the client expects. */
export class ValidationError extends WireError {
  readonly status = 400 as const;
  readonly violations: FieldViolation[];

  constructor(violations: FieldViolation[]) {
    super(`INVALID_ARGUMENT: ${violations.map((v) => `"${v.field}" ${v.description}`).join(', ')}`);
    this.violations = [...violations].sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0));
  }

  body(): ErrorBody {
    return { message: 'INVALID_ARGUMENT', details: { validationError: { fieldViolations: this.violations } } };
  }
}

export function violation(field: string, description: string, violatedRule: ViolatedRule, data: Record<string, unknown> = {}): ValidationError {
  return new ValidationError([{ field, description, violatedRule, data }]);
}

export const notFound = (code: string, description: string, data?: Record<string, unknown>) => new ApplicationError(404, code, description, data);
export const forbidden = (code: string, description: string) => new ApplicationError(403, code, description);
export const conflict = (code: string, description: string, data?: Record<string, unknown>) => new ApplicationError(409, code, description, data);
export const badRequest = (code: string, description: string, data?: Record<string, unknown>) => new ApplicationError(400, code, description, data);
export const unauthenticated = (description = 'A valid access token or API key is required') =>
  new ApplicationError(401, 'UNAUTHENTICATED', description);

export function tooManyRequests(retryAfterSeconds: number): ApplicationError {
  const error = new ApplicationError(429, 'TOO_MANY_REQUESTS', 'Too many requests, try again later', { retryAfterSeconds });
  error.headers['Retry-After'] = String(retryAfterSeconds);
  return error;
}

/** The body of an unexpected failure: no message, stack or SQL, only the request id to look up in the log. */
export function internalErrorBody(requestId: string): ErrorBody {
  return {
    message: `System error occurred, request-id: ${requestId}`,
    details: { applicationError: { code: 'INTERNAL_ERROR', description: 'System error occurred', data: { requestId } } },
  };
}

/** Retry-After of a 503 while the database cannot answer (a restart or failover takes seconds). */
export const DATABASE_RETRY_AFTER_SECONDS = 1;

/** The body of a 503 while the database is down, restarting or too slow: retryable, names no internals. */
export function databaseUnavailableBody(requestId: string): ErrorBody {
  return {
    message: `The database is unavailable, retry shortly; request-id: ${requestId}`,
    details: { applicationError: { code: 'DATABASE_UNAVAILABLE', description: 'The database is unavailable, retry shortly', data: { requestId } } },
  };
}
