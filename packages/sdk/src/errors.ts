/**
 * Client errors of spec section 8. Every failed call rejects with a `VitrineError` carrying the
 * status, the wire `details`, a `code` and the server's request id (`requestId`).
 */

export interface FieldViolation {
  field: string;
  description: string;
  violatedRule?: string;
  data?: Record<string, unknown>;
}

export interface ApplicationErrorDetails {
  applicationError: { code: string; description: string; data: Record<string, unknown> };
  requestId?: string;
}

export interface ValidationErrorDetails {
  validationError: { fieldViolations: FieldViolation[] };
  requestId?: string;
}

export type ErrorDetails = ApplicationErrorDetails | ValidationErrorDetails;

export type ErrorKind = 'validation' | 'application' | 'system';

export class VitrineError extends Error {
  override readonly name = 'VitrineError';
  constructor(
    message: string,
    readonly kind: ErrorKind,
    /** Upper snake case (or a `-19976` / `WDE0073` style code); `INVALID_ARGUMENT` for validation errors. */
    readonly code: string,
    /** HTTP status; undefined when no response arrived. */
    readonly status: number | undefined,
    /** The server's `x-wix-request-id`; undefined when no response arrived. */
    readonly requestId: string | undefined,
    readonly details?: ErrorDetails,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** Application error data (`details.applicationError.data`), `{}` otherwise. */
  get data(): Record<string, unknown> {
    return this.details && 'applicationError' in this.details ? this.details.applicationError.data : {};
  }
}

/** "Not Found" -> "NOT_FOUND"; "" -> "UNKNOWN". */
export function constantCase(text: string | undefined): string {
  const words = (text ?? '').trim().split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.length ? words.map((w) => w.toUpperCase()).join('_') : 'UNKNOWN';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `product.id` with `{ id: '_id' }`... : the longest matching wire prefix becomes the caller's argument name. */
function toArgumentName(field: string, argumentFields: Readonly<Record<string, string>>): string {
  const prefix = Object.keys(argumentFields)
    .filter((p) => field === p || field.startsWith(`${p}.`))
    .sort((a, b) => b.length - a.length)[0];
  return prefix === undefined ? field : `${argumentFields[prefix]}${field.slice(prefix.length)}`;
}

/**
 * Builds the error of a non-200 response from its status, status text, request id and JSON body (if
 * any). `argumentFields` maps wire field prefixes to the caller's argument names for violations.
 */
export function errorFromResponse(status: number, statusText: string, requestId: string | undefined, body: unknown, argumentFields: Readonly<Record<string, string>> = {}): VitrineError {
  const details = isObject(body) && isObject(body.details) ? body.details : undefined;
  const serverMessage = isObject(body) && typeof body.message === 'string' ? body.message : undefined;

  const validation = details && isObject(details.validationError) ? details.validationError : undefined;
  if (validation) {
    const violations = (Array.isArray(validation.fieldViolations) ? validation.fieldViolations : []) as FieldViolation[];
    const sorted = violations.map((v) => ({ ...v, field: toArgumentName(String(v.field), argumentFields) })).sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0));
    const message = `INVALID_ARGUMENT: ${sorted.map((v) => `"${v.field}" ${v.description}`).join(', ')}`;
    return new VitrineError(message, 'validation', 'INVALID_ARGUMENT', status, requestId, { validationError: { fieldViolations: sorted }, requestId });
  }

  const app = details && isObject(details.applicationError) ? details.applicationError : undefined;
  if (status >= 500) {
    const code = typeof app?.code === 'string' ? app.code : constantCase(statusText);
    const message = requestId ? `System error occurred, request-id: ${requestId}` : `System error occurred: ${statusText || status}`;
    return new VitrineError(message, 'system', code, status, requestId);
  }

  const fallback = statusText || 'UNKNOWN';
  const description = typeof app?.description === 'string' ? app.description : fallback;
  const code = typeof app?.code === 'string' ? app.code : constantCase(statusText);
  const data = isObject(app?.data) ? app.data : {};
  const message = serverMessage ?? fallback;
  const combined = message === description ? message : `${message}: ${description}`;
  return new VitrineError(combined, 'application', code, status, requestId, { applicationError: { code, description, data }, requestId });
}

/** No response at all (DNS, refused connection, CORS, abort). A non-object thrown value is rethrown unchanged. */
export function systemError(thrown: unknown): VitrineError {
  if (thrown === null || typeof thrown !== 'object') throw thrown;
  const error = thrown as { message?: unknown; cause?: { code?: unknown; message?: unknown } };
  const reason = [error.message, error.cause?.code ?? error.cause?.message].filter((p) => typeof p === 'string' && p).join(': ');
  return new VitrineError(`System error occurred: ${reason || 'no response'}`, 'system', 'UNKNOWN', undefined, undefined, undefined, { cause: thrown });
}
