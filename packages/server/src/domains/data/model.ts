import type { DataFieldType, DataPermissions, DataRole } from '@vitrine/types/data';
import type { Caller } from '../../http/context.js';
import { isElevated } from '../../http/context.js';

/** Collections, fields and permissions: pure rules, no I/O. */

export const FIELD_TYPES = [
  'TEXT', 'NUMBER', 'DATE', 'DATETIME', 'IMAGE', 'BOOLEAN', 'DOCUMENT', 'URL', 'RICH_TEXT', 'VIDEO', 'ANY', 'ARRAY_STRING',
  'ARRAY_DOCUMENT', 'AUDIO', 'TIME', 'LANGUAGE', 'RICH_CONTENT', 'MEDIA_GALLERY', 'ADDRESS', 'PAGE_LINK', 'REFERENCE',
  'MULTI_REFERENCE', 'OBJECT', 'ARRAY',
] as const satisfies readonly DataFieldType[];
export type FieldType = DataFieldType;

/** Roles from the public client (ANYONE ... ADMIN) plus the spec's names for the owner-only levels. */
export const ROLES = ['ANYONE', 'SITE_MEMBER', 'SITE_MEMBER_AUTHOR', 'CMS_EDITOR', 'PRIVILEGED', 'ADMIN'] as const satisfies readonly DataRole[];
export type Role = DataRole;
export type Action = 'read' | 'insert' | 'update' | 'remove';

export interface CollectionField {
  key: string;
  displayName?: string | null | undefined;
  type: FieldType;
  typeMetadata?: { reference?: { referencedCollectionId?: string }; multiReference?: { referencedCollectionId?: string; referencingFieldKey?: string; referencingDisplayName?: string } } | undefined;
  required?: boolean | null | undefined;
  systemField?: boolean | undefined;
  [extra: string]: unknown;
}

export type Permissions = DataPermissions;

export interface CollectionDoc {
  id: string;
  displayName: string | null;
  fields: CollectionField[];
  permissions: Permissions;
  plugins: unknown[];
  displayField?: string | null | undefined;
}

export const DEFAULT_PERMISSIONS: Permissions = { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' };

/** Collection ids: letters, digits, `_`, `-`, and one `/` for app collections (`App/Name`). */
export const COLLECTION_ID = /^[A-Za-z0-9_-]{1,100}(\/[A-Za-z0-9_-]{1,100})?$/;
export const MAX_FIELDS = 1000;

export const SYSTEM_FIELD_DEFS: CollectionField[] = [
  { key: '_id', displayName: 'ID', type: 'TEXT', systemField: true },
  { key: '_createdDate', displayName: 'Created Date', type: 'DATETIME', systemField: true },
  { key: '_updatedDate', displayName: 'Updated Date', type: 'DATETIME', systemField: true },
  { key: '_owner', displayName: 'Owner', type: 'TEXT', systemField: true },
];

/** What the permission check decided: allowed for all items, only the caller's own, or not at all. */
export type Access = { allowed: false } | { allowed: true; ownerOnly: string | undefined };

/** The id `_owner` gets for a caller, and against which SITE_MEMBER_AUTHOR compares. */
export function ownerIdOf(caller: Caller): string | undefined {
  switch (caller.kind) {
    case 'member': return caller.memberId;
    case 'visitor': return caller.visitorId;
    case 'owner': return caller.apiKeyId;
    case 'app': return caller.appId;
    default: return undefined;
  }
}

export function access(caller: Caller, role: Role): Access {
  if (isElevated(caller)) return { allowed: true, ownerOnly: undefined };
  switch (role) {
    case 'ANYONE': return caller.kind === 'anonymous' ? { allowed: false } : { allowed: true, ownerOnly: undefined };
    case 'SITE_MEMBER': return caller.kind === 'member' ? { allowed: true, ownerOnly: undefined } : { allowed: false };
    case 'SITE_MEMBER_AUTHOR': return caller.kind === 'member' ? { allowed: true, ownerOnly: caller.memberId } : { allowed: false };
    default: return { allowed: false };
  }
}

export function referencedCollectionOf(field: CollectionField): string | undefined {
  return field.type === 'REFERENCE' ? field.typeMetadata?.reference?.referencedCollectionId
    : field.type === 'MULTI_REFERENCE' ? field.typeMetadata?.multiReference?.referencedCollectionId : undefined;
}

/** Does a stored value fit the declared type? (null always does; dates travel as {"$date"}.) */
export function valueFitsType(type: FieldType, value: unknown): boolean {
  if (value === null || value === undefined) return true;
  switch (type) {
    case 'TEXT': case 'IMAGE': case 'DOCUMENT': case 'URL': case 'RICH_TEXT': case 'VIDEO': case 'AUDIO': case 'TIME': case 'LANGUAGE': case 'PAGE_LINK':
      return typeof value === 'string';
    case 'DATE': return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
    case 'NUMBER': return typeof value === 'number';
    case 'BOOLEAN': return typeof value === 'boolean';
    case 'DATETIME': return typeof value === 'object' && !Array.isArray(value) && typeof (value as { $date?: unknown }).$date === 'string';
    case 'REFERENCE': return typeof value === 'string' || (typeof value === 'object' && !Array.isArray(value) && typeof (value as { _id?: unknown })._id === 'string');
    case 'MULTI_REFERENCE': return Array.isArray(value);
    case 'ARRAY_STRING': return Array.isArray(value) && value.every((v) => typeof v === 'string');
    case 'ARRAY': case 'ARRAY_DOCUMENT': case 'MEDIA_GALLERY': return Array.isArray(value);
    case 'OBJECT': case 'ADDRESS': case 'RICH_CONTENT': return typeof value === 'object' && !Array.isArray(value);
    case 'ANY': return true;
  }
}
