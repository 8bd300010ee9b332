/**
 * Data collections and items (wix-data v2) as they travel on the wire. Item values inside `data` are
 * the caller's own fields (system fields `_id`, `_owner`, `_createdDate`, `_updatedDate` included);
 * dates anywhere in them travel as `{ "$date": "<ISO>" }`.
 */
import type { IsoDate } from './common.js';

export type DataFieldType =
  | 'TEXT' | 'NUMBER' | 'DATE' | 'DATETIME' | 'IMAGE' | 'BOOLEAN' | 'DOCUMENT' | 'URL' | 'RICH_TEXT' | 'VIDEO' | 'ANY' | 'ARRAY_STRING'
  | 'ARRAY_DOCUMENT' | 'AUDIO' | 'TIME' | 'LANGUAGE' | 'RICH_CONTENT' | 'MEDIA_GALLERY' | 'ADDRESS' | 'PAGE_LINK' | 'REFERENCE'
  | 'MULTI_REFERENCE' | 'OBJECT' | 'ARRAY';

/** Who may do an action on a collection's items (lowest to highest). */
export type DataRole = 'ANYONE' | 'SITE_MEMBER' | 'SITE_MEMBER_AUTHOR' | 'CMS_EDITOR' | 'PRIVILEGED' | 'ADMIN';

export interface DataCollectionField {
  key: string;
  displayName?: string | null;
  type: DataFieldType;
  typeMetadata?: { reference?: { referencedCollectionId?: string }; multiReference?: { referencedCollectionId?: string; referencingFieldKey?: string; referencingDisplayName?: string } };
  required?: boolean | null;
  systemField?: boolean;
}

export interface DataPermissions { read: DataRole; insert: DataRole; update: DataRole; remove: DataRole }

/** A collection as the collections API answers it (system fields first). */
export interface DataCollection {
  id: string;
  collectionType: 'NATIVE';
  displayName: string | null;
  displayField: string | null;
  fields: DataCollectionField[];
  permissions: DataPermissions;
  plugins: unknown[];
  revision: string;
  maxPageSize: number;
  pagingModes: ('OFFSET' | 'CURSOR')[];
  capabilities: { dataOperations: string[]; collectionOperations: string[]; indexLimits: { regular: number; unique: number; total: number } };
  createdDate: IsoDate;
  updatedDate: IsoDate;
}

/** An item: the SDK returns `data`. */
export interface DataItem { id: string; dataCollectionId: string; data: Record<string, unknown> }
