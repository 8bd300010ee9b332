import { ApplicationError, ValidationError, WireError } from '../../http/errors.js';

/** One item of a per-item bulk answer (`results[]` of the platform's bulk calls). */
export interface BulkItemResult {
  itemMetadata: { id?: string; originalIndex: number; success: boolean; error?: { code: string; description: string; data: Record<string, unknown> } };
  item?: unknown;
}

/**
 * Runs `fn` for each item in order (each call commits or fails on its own). A wire error fails that
 * item only, with its code, description and data (a validation error: INVALID_ARGUMENT with its field
 * violations); any other error stops the call. A failed item is named by `idOf` when its id is known
 * before the call (updates, deletes); a successful one by the id `fn` answers, else `idOf`.
 */
export async function bulkResults<T>(
  items: readonly T[],
  fn: (item: T, index: number) => Promise<{ id?: string | undefined; item?: unknown }>,
  idOf: (item: T) => string | undefined = () => undefined,
) {
  const results: BulkItemResult[] = [];
  for (const [originalIndex, input] of items.entries()) {
    try {
      const r = await fn(input, originalIndex);
      const id = r.id ?? idOf(input);
      results.push({ itemMetadata: { ...(id !== undefined ? { id } : {}), originalIndex, success: true }, ...(r.item !== undefined ? { item: r.item } : {}) });
    } catch (error) {
      if (!(error instanceof WireError)) throw error;
      const id = idOf(input);
      results.push({ itemMetadata: { ...(id !== undefined ? { id } : {}), originalIndex, success: false, error: itemError(error) } });
    }
  }
  const ok = results.filter((r) => r.itemMetadata.success).length;
  return { results, bulkActionMetadata: { totalSuccesses: ok, totalFailures: results.length - ok, undetailedFailures: 0 } };
}

function itemError(error: WireError): { code: string; description: string; data: Record<string, unknown> } {
  if (error instanceof ApplicationError) return { code: error.code, description: error.description, data: error.data };
  if (error instanceof ValidationError) {
    return { code: 'INVALID_ARGUMENT', description: error.violations.map((v) => `${v.field} ${v.description}`).join('; '), data: { fieldViolations: error.violations } };
  }
  return { code: 'INVALID_ARGUMENT', description: error.message, data: {} };
}
