/** Reading JSON the wire types leave open (an order's addresses and description lines), by narrowing. */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The object at `value`, or an empty one. */
export const record = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});

/** `value.original` of a translatable text, or the text itself. */
export function text(value: unknown): string | undefined {
  const t = isRecord(value) ? value.original : value;
  return typeof t === 'string' && t.length > 0 ? t : undefined;
}
