/** Data helpers of the dashboard: item values as text and form input as values (calls: @vitrine/react). */
import type { collections, items } from '@vitrine/sdk/data';

export type DataCollection = collections.DataCollection;
export type DataField = collections.DataField;
export type DataItem = items.WixDataItem;

/** A stored value as one line of text: dates unwrap, objects and arrays as JSON. */
export function displayValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString().replace('T', ' ').slice(0, 19);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const TEXT_TYPES = new Set(['TEXT', 'IMAGE', 'DOCUMENT', 'URL', 'RICH_TEXT', 'VIDEO', 'AUDIO', 'TIME', 'LANGUAGE', 'PAGE_LINK', 'DATE', 'REFERENCE']);

export type InputKind = 'text' | 'number' | 'boolean' | 'datetime' | 'json';

/** The form control a field type takes in the "new item" form. */
export function inputKind(type: string): InputKind {
  if (TEXT_TYPES.has(type)) return 'text';
  if (type === 'NUMBER') return 'number';
  if (type === 'BOOLEAN') return 'boolean';
  if (type === 'DATETIME') return 'datetime';
  return 'json';
}

/** Form text to a wire value; throws with the field name when JSON does not parse. */
export function parseInput(field: Pick<DataField, 'key' | 'type'>, raw: string | boolean): unknown {
  const kind = inputKind(field.type);
  if (kind === 'boolean') return raw === true;
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  switch (kind) {
    case 'text': return raw;
    case 'number': return Number(raw);
    case 'datetime': return new Date(raw);
    case 'json':
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        throw new Error(`${field.key}: must be JSON`);
      }
  }
}
