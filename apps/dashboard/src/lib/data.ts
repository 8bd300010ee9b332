/** Data helpers of the dashboard: item values as text and form input as values (calls: @vitrine/react). */
import type { collections, items } from '@vitrine/sdk/data';
import { formatDate } from './time';

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

/**
 * A stored value as the items grid shows it: a date in the owner's time zone, labelled with it, like
 * every other time in the dashboard ("22 Nov 2026, 01:17 CET"); the rest as `displayValue`.
 */
export function cellText(value: unknown): string {
  return value instanceof Date ? formatDate(value) : displayValue(value);
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

/** Field types the collection form offers (the server's list; the rest are entered through the API). */
export const FIELD_TYPE_CHOICES = ['TEXT', 'NUMBER', 'BOOLEAN', 'DATE', 'DATETIME', 'URL', 'IMAGE', 'RICH_TEXT', 'REFERENCE', 'ARRAY_STRING', 'ARRAY', 'OBJECT'] as const;
/** Who may read or write a collection, most open first (the server's roles). */
export const PERMISSION_ROLES = ['ANYONE', 'SITE_MEMBER', 'SITE_MEMBER_AUTHOR', 'CMS_EDITOR', 'PRIVILEGED', 'ADMIN'] as const;
export const PERMISSION_ACTIONS = ['read', 'insert', 'update', 'remove'] as const;
/** A collection id or a field key as the server accepts them. */
export const COLLECTION_ID_PATTERN = '[A-Za-z0-9_\\-]{1,100}';
export const FIELD_KEY_PATTERN = '[A-Za-z_][A-Za-z0-9_]{0,99}';
/** Fields a collection form shows at most (the server allows 1000; larger schemas go through the API). */
export const FORM_FIELDS_MAX = 100;

/** The collection a REFERENCE field points at, if any. */
export function referencedCollection(field: Pick<DataField, 'type' | 'typeMetadata'>): string | undefined {
  if (field.type !== 'REFERENCE') return undefined;
  const ref = field.typeMetadata?.reference;
  if (typeof ref !== 'object' || ref === null || !('referencedCollectionId' in ref)) return undefined;
  const id = ref.referencedCollectionId;
  return typeof id === 'string' ? id : undefined;
}

/** A referenced item as one line: its title-like field, else its id (expanded references are objects). */
export function referenceText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null) return '';
  const item = value as Record<string, unknown>;
  for (const key of ['title', 'name', 'displayName']) if (typeof item[key] === 'string') return item[key];
  return typeof item._id === 'string' ? item._id : displayValue(value);
}

/** A stored value as the text an edit input starts with (the inverse of `parseInput` for each kind). */
export function inputText(field: Pick<DataField, 'type'>, value: unknown): string | boolean {
  if (field.type === 'REFERENCE') return typeof value === 'object' && value !== null && typeof (value as { _id?: unknown })._id === 'string' ? (value as { _id: string })._id : typeof value === 'string' ? value : '';
  const kind = inputKind(field.type);
  if (kind === 'boolean') return value === true;
  if (value === null || value === undefined) return '';
  if (kind === 'datetime' && value instanceof Date) {
    // datetime-local wants local wall time without a zone.
    const local = new Date(value.getTime() - value.getTimezoneOffset() * 60_000);
    return local.toISOString().slice(0, 16);
  }
  if (kind === 'json') return JSON.stringify(value);
  return String(value);
}
