/**
 * Messages a shopper can act on, from the SDK's errors. The SDK's own message is for developers
 * (`INVALID_ARGUMENT: "member.contact.addresses[0].city" must be at most 100 characters`); here a
 * field violation is named by the form's label ("City must be at most 100 characters.") and an
 * application error by its description. Read without importing the SDK (pages load it later).
 */
import { isRecord } from './json';

/** `labels` maps a field's last path segment (`city`, `firstName`) to the form's label for it. */
export function readableError(error: Error, labels: Readonly<Record<string, string>> = {}, byCode: Readonly<Record<string, string>> = {}): string {
  const details = 'details' in error && isRecord(error.details) ? error.details : {};
  const validation = isRecord(details.validationError) && Array.isArray(details.validationError.fieldViolations) ? details.validationError.fieldViolations : [];
  const violations = validation.filter(isRecord).map((v) => {
    const field = String(v.field ?? '').split('.').pop()?.replace(/\[\d+\]$/, '') ?? '';
    return `${labels[field] ?? 'A field'} ${String(v.description ?? 'is not valid')}.`;
  });
  if (violations.length > 0) return violations.join(' ');
  const app = isRecord(details.applicationError) ? details.applicationError : undefined;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  if (code && byCode[code]) return byCode[code];
  if (app && typeof app.description === 'string' && app.description) return app.description;
  return 'Something went wrong and nothing was saved. Please try again.';
}
