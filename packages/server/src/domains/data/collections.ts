import { createHash } from 'node:crypto';
import type { DataIndexStatus } from '@vitrine/types/data';
import type { RequestContext } from '../../http/context.js';
import { violation } from '../../http/errors.js';
import { inTransaction } from '../../storage/transaction.js';
import { forgetCollection, PAGE_DEFAULT, requireCollectionId } from './common.js';
import { collectionExists, collectionNotFound, notSupported, revisionMismatch } from './errors.js';
import { FIELD_SEGMENT, indexExpression } from '../../storage/json-filter.js';
import {
  COLLECTION_ID, DEFAULT_PERMISSIONS, FIELD_TYPES, MAX_FIELDS, ROLES, SYSTEM_FIELD_DEFS,
  type CollectionDoc, type CollectionField, type FieldType, type Permissions, type Role,
} from './model.js';
import {
  createSqlIndex, deleteIndexRow, dropSqlIndex, findCollection, insertCollection, insertIndexRow, listCollections, listIndexRows,
  purgeCollection, setCollectionDeleted, setIndexStatus, updateCollection, type CollectionRow,
} from './store.js';
import { isPlainObject } from './values.js';
import { checkPath, compiling } from './common.js';

/** Collections (schema, permissions) and their indexes: owner calls. */

export const INDEX_LIMITS = { regular: 10, unique: 5, total: 15 } as const;
export const INDEX_FIELDS_MAX = 3;
const INDEX_NAME = /^[A-Za-z0-9_-]{1,100}$/;
const SYSTEM_KEYS = new Set(SYSTEM_FIELD_DEFS.map((f) => f.key));

function readField(raw: unknown, at: string): CollectionField {
  if (!isPlainObject(raw)) throw violation(at, 'must be an object', 'FORMAT');
  if (typeof raw.key !== 'string' || !FIELD_SEGMENT.test(raw.key) || raw.key.length > 100) throw violation(`${at}.key`, 'must be a letter or _ followed by letters, digits or _ (at most 100)', 'FORMAT');
  if (SYSTEM_KEYS.has(raw.key)) throw violation(`${at}.key`, 'is a system field', 'FIELD_NOT_ALLOWED');
  if (typeof raw.type !== 'string' || !(FIELD_TYPES as readonly string[]).includes(raw.type)) throw violation(`${at}.type`, `must be one of ${FIELD_TYPES.join(', ')}`, 'INVALID_ENUM_VALUE');
  const field: CollectionField = { key: raw.key, type: raw.type as FieldType, displayName: typeof raw.displayName === 'string' ? raw.displayName : raw.key };
  if (raw.required === true) field.required = true;
  if (isPlainObject(raw.typeMetadata)) {
    const md = raw.typeMetadata;
    const target = (md.reference as { referencedCollectionId?: unknown } | undefined)?.referencedCollectionId ?? (md.multiReference as { referencedCollectionId?: unknown } | undefined)?.referencedCollectionId;
    if (target !== undefined && (typeof target !== 'string' || !COLLECTION_ID.test(target))) throw violation(`${at}.typeMetadata`, 'must name a valid referenced collection id', 'FORMAT');
    field.typeMetadata = md as CollectionField['typeMetadata'];
  }
  if ((field.type === 'REFERENCE' || field.type === 'MULTI_REFERENCE')) {
    const md = field.typeMetadata;
    const target = field.type === 'REFERENCE' ? md?.reference?.referencedCollectionId : md?.multiReference?.referencedCollectionId;
    if (!target) throw violation(`${at}.typeMetadata`, `a ${field.type} field names its referenced collection`, 'REQUIRED_FIELD');
  }
  return field;
}

function readFields(raw: unknown, at: string): CollectionField[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw) || raw.length > MAX_FIELDS) throw violation(at, `must be an array of at most ${MAX_FIELDS} fields`, 'MAX_SIZE');
  const fields = raw.filter((f) => !(isPlainObject(f) && typeof f.key === 'string' && SYSTEM_KEYS.has(f.key))).map((f, i) => readField(f, `${at}[${i}]`));
  const keys = new Set<string>();
  for (const f of fields) {
    if (keys.has(f.key)) throw violation(at, `field "${f.key}" is listed twice`, 'FORMAT');
    keys.add(f.key);
  }
  return fields;
}

function readPermissions(raw: unknown, fallback: Permissions): Permissions {
  if (raw === undefined || raw === null) return fallback;
  if (!isPlainObject(raw)) throw violation('collection.permissions', 'must be an object', 'FORMAT');
  const out = { ...fallback };
  for (const action of ['read', 'insert', 'update', 'remove'] as const) {
    const v = raw[action];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string' || !(ROLES as readonly string[]).includes(v)) throw violation(`collection.permissions.${action}`, `must be one of ${ROLES.join(', ')}`, 'INVALID_ENUM_VALUE');
    out[action] = v as Role;
  }
  return out;
}

async function loadRow(ctx: RequestContext, id: string): Promise<CollectionRow> {
  const row = await findCollection(ctx.db, ctx.site.id, id);
  if (!row || row.deleted) throw collectionNotFound(id);
  return row;
}

export async function createCollection(ctx: RequestContext, input: { collection?: unknown }): Promise<CollectionRow> {
  const raw = isPlainObject(input.collection) ? input.collection : undefined;
  if (!raw) throw violation('collection', 'is required', 'REQUIRED_FIELD');
  const id = raw.id ?? raw._id;
  if (typeof id !== 'string' || !COLLECTION_ID.test(id)) throw violation('collection.id', 'must be 1-100 letters, digits, _ or -, optionally App/Name', 'FORMAT');
  const doc: CollectionDoc = {
    id,
    displayName: typeof raw.displayName === 'string' ? raw.displayName : id,
    displayField: typeof raw.displayField === 'string' ? raw.displayField : null,
    fields: readFields(raw.fields, 'collection.fields'),
    permissions: readPermissions(raw.permissions, DEFAULT_PERMISSIONS),
    plugins: [],
  };
  const now = new Date().toISOString();
  await inTransaction(ctx.db, async (trx) => {
    const existing = await findCollection(trx, ctx.site.id, id);
    if (existing && !existing.deleted) throw collectionExists(id);
    if (existing) await purgeCollection(trx, ctx.site.id, id);
    await insertCollection(trx, ctx.site.id, id, doc, now);
  });
  forgetCollection(ctx.site.id, id);
  return loadRow(ctx, id);
}

export async function getCollection(ctx: RequestContext, input: { dataCollectionId?: unknown }): Promise<CollectionRow> {
  return loadRow(ctx, requireCollectionId(input.dataCollectionId));
}

export async function listAllCollections(ctx: RequestContext, input: { paging?: { limit?: number | undefined; offset?: number | undefined } | undefined }) {
  const limit = input.paging?.limit ?? PAGE_DEFAULT;
  const offset = input.paging?.offset ?? 0;
  const { rows, total } = await listCollections(ctx.db, ctx.site.id, limit, offset);
  return { rows, offset, total };
}

/** Applies `change` to the stored definition at the caller's revision (when given). */
async function changeCollection(ctx: RequestContext, id: string, revision: unknown, change: (doc: CollectionDoc) => CollectionDoc): Promise<CollectionRow> {
  const row = await loadRow(ctx, id);
  if (revision !== undefined && revision !== null && String(revision) !== String(row.revision)) throw revisionMismatch(id);
  const next = change(structuredClone(row.doc as CollectionDoc));
  if (!(await updateCollection(ctx.db, ctx.site.id, id, next, row.revision, new Date().toISOString()))) throw revisionMismatch(id);
  forgetCollection(ctx.site.id, id);
  return loadRow(ctx, id);
}

export async function updateWholeCollection(ctx: RequestContext, input: { collection?: unknown }): Promise<CollectionRow> {
  const raw = isPlainObject(input.collection) ? input.collection : undefined;
  if (!raw) throw violation('collection', 'is required', 'REQUIRED_FIELD');
  const id = requireCollectionId(raw.id ?? raw._id);
  const fields = readFields(raw.fields, 'collection.fields');
  return changeCollection(ctx, id, raw.revision, (doc) => ({
    ...doc,
    displayName: typeof raw.displayName === 'string' ? raw.displayName : doc.displayName,
    displayField: typeof raw.displayField === 'string' ? raw.displayField : doc.displayField ?? null,
    fields,
    permissions: readPermissions(raw.permissions, DEFAULT_PERMISSIONS),
  }));
}

export async function patchCollection(ctx: RequestContext, input: { dataCollectionId?: unknown; dataCollection?: unknown }): Promise<CollectionRow> {
  const id = requireCollectionId(input.dataCollectionId);
  const raw = isPlainObject(input.dataCollection) ? input.dataCollection : {};
  const fields = raw.fields === undefined ? undefined : readFields(raw.fields, 'dataCollection.fields');
  return changeCollection(ctx, id, raw.revision, (doc) => ({
    ...doc,
    ...(typeof raw.displayName === 'string' ? { displayName: raw.displayName } : {}),
    ...(fields ? { fields } : {}),
    permissions: readPermissions(raw.permissions, doc.permissions),
  }));
}

export async function deleteCollection(ctx: RequestContext, input: { dataCollectionId?: unknown }) {
  const id = requireCollectionId(input.dataCollectionId);
  await loadRow(ctx, id);
  for (const index of await listIndexRows(ctx.db, ctx.site.id, id)) {
    await dropSqlIndex(ctx.db, index.sqlName);
    await deleteIndexRow(ctx.db, ctx.site.id, id, index.name);
  }
  await setCollectionDeleted(ctx.db, ctx.site.id, id, true, new Date().toISOString());
  forgetCollection(ctx.site.id, id);
  return {};
}

export async function restoreCollection(ctx: RequestContext, input: { dataCollectionId?: unknown }): Promise<CollectionRow> {
  const id = requireCollectionId(input.dataCollectionId);
  const row = await findCollection(ctx.db, ctx.site.id, id);
  if (!row) throw collectionNotFound(id);
  await setCollectionDeleted(ctx.db, ctx.site.id, id, false, new Date().toISOString());
  forgetCollection(ctx.site.id, id);
  return loadRow(ctx, id);
}

export async function fieldChange(ctx: RequestContext, input: { dataCollectionId?: unknown; field?: unknown; fieldKey?: unknown }, op: 'create' | 'update' | 'delete'): Promise<CollectionRow> {
  const id = requireCollectionId(input.dataCollectionId);
  return changeCollection(ctx, id, undefined, (doc) => {
    if (op === 'delete') {
      if (typeof input.fieldKey !== 'string' || !doc.fields.some((f) => f.key === input.fieldKey)) throw violation('fieldKey', 'must name a field of the collection', 'FORMAT');
      return { ...doc, fields: doc.fields.filter((f) => f.key !== input.fieldKey) };
    }
    const field = readField(input.field, 'field');
    const exists = doc.fields.some((f) => f.key === field.key);
    if (op === 'create' && exists) throw violation('field.key', `field "${field.key}" already exists`, 'FORMAT');
    if (op === 'update' && !exists) throw violation('field.key', `field "${field.key}" does not exist`, 'FORMAT');
    return { ...doc, fields: exists ? doc.fields.map((f) => (f.key === field.key ? field : f)) : [...doc.fields, field] };
  });
}

export async function pluginCall(): Promise<never> {
  throw notSupported('Collection plugins');
}

// ---------------------------------------------------------------------------------------------
// Indexes

/** An index as stored (its row's document); present.ts encodes it. */
export interface IndexDoc {
  id: string; name: string; fields: { path: string; order: 'ASC' | 'DESC' }[]; unique: boolean; caseInsensitive: boolean;
  status: DataIndexStatus; source: 'USER'; failure?: { code: string; description: string } | undefined;
}
/** Indexes a collection may still get. */
export interface IndexQuota { regular: number; unique: number; total: number }

function sqlIndexName(siteId: string, collectionId: string, name: string): string {
  return `dx_${createHash('sha256').update(`${siteId}\n${collectionId}\n${name}`).digest('hex').slice(0, 24)}`;
}

export async function createIndex(ctx: RequestContext, input: { dataCollectionId?: unknown; index?: unknown }): Promise<IndexDoc> {
  const collectionId = requireCollectionId(input.dataCollectionId);
  const row = await loadRow(ctx, collectionId);
  const doc = row.doc as CollectionDoc;
  const raw = isPlainObject(input.index) ? input.index : undefined;
  if (!raw) throw violation('index', 'is required', 'REQUIRED_FIELD');
  if (typeof raw.name !== 'string' || !INDEX_NAME.test(raw.name)) throw violation('index.name', 'must be 1-100 letters, digits, _ or -', 'FORMAT');
  if (!Array.isArray(raw.fields) || raw.fields.length < 1 || raw.fields.length > INDEX_FIELDS_MAX) throw violation('index.fields', `must list 1 to ${INDEX_FIELDS_MAX} fields`, 'MAX_SIZE');
  if (raw.caseInsensitive === true) throw notSupported('Case-insensitive indexes');
  const unique = raw.unique === true;
  const fields = raw.fields.map((f: unknown, i) => {
    const path = isPlainObject(f) ? f.path : undefined;
    const order = isPlainObject(f) && f.order === 'DESC' ? 'DESC' as const : 'ASC' as const;
    if (typeof path !== 'string') throw violation(`index.fields[${i}].path`, 'must be a field path', 'FORMAT');
    return { path, order };
  });
  fields.forEach((f, i) => checkPath(f.path, `index.fields[${i}].path`));
  const expressions = compiling('index', () => fields.map((f) => {
    const declared = doc.fields.find((d) => d.key === f.path.split('.')[0]);
    const isDate = declared?.type === 'DATETIME' || f.path === '_createdDate' || f.path === '_updatedDate';
    return indexExpression(ctx.dialect, f.path, isDate);
  }));
  const existing = await listIndexRows(ctx.db, ctx.site.id, collectionId);
  if (existing.some((i) => i.name === raw.name)) throw violation('index.name', `index "${raw.name}" already exists`, 'FORMAT');
  const uniques = existing.filter((i) => (i.doc as IndexDoc).unique).length;
  if (existing.length >= INDEX_LIMITS.total || (unique ? uniques >= INDEX_LIMITS.unique : existing.length - uniques >= INDEX_LIMITS.regular)) {
    throw violation('index', `the collection has reached its index limit (${JSON.stringify(INDEX_LIMITS)})`, 'MAX_SIZE');
  }
  const sqlName = sqlIndexName(ctx.site.id, collectionId, raw.name);
  const index: IndexDoc = { id: sqlName, name: raw.name, fields, unique, caseInsensitive: false, status: 'BUILDING', source: 'USER' };
  await insertIndexRow(ctx.db, ctx.site.id, collectionId, { name: raw.name, sqlName, doc: index, status: 'BUILDING' }, new Date().toISOString());
  try {
    await createSqlIndex(ctx.db, sqlName, expressions, unique ? { siteId: ctx.site.id, collectionId } : undefined);
    index.status = 'ACTIVE';
  } catch (error) {
    ctx.log.warn({ err: error, sqlName }, 'index creation failed');
    index.status = 'FAILED';
    index.failure = { code: unique ? 'DUPLICATE_KEY_ERROR' : 'INDEX_CREATION_FAILED', description: unique ? 'Existing items have duplicate values for the index fields' : 'The database could not build the index' };
  }
  await setIndexStatus(ctx.db, ctx.site.id, collectionId, raw.name, index.status, index);
  return index;
}

export async function dropIndex(ctx: RequestContext, input: { dataCollectionId?: unknown; indexName?: unknown }): Promise<void> {
  const collectionId = requireCollectionId(input.dataCollectionId);
  await loadRow(ctx, collectionId);
  const found = (await listIndexRows(ctx.db, ctx.site.id, collectionId)).find((i) => i.name === input.indexName);
  if (!found) throw violation('indexName', 'must name an index of the collection', 'FORMAT');
  await dropSqlIndex(ctx.db, found.sqlName);
  await deleteIndexRow(ctx.db, ctx.site.id, collectionId, found.name);
}

export async function listIndexes(ctx: RequestContext, input: { dataCollectionId?: unknown; paging?: { limit?: number | undefined; offset?: number | undefined } | undefined }): Promise<{ indexes: IndexDoc[]; offset: number; total: number }> {
  const collectionId = requireCollectionId(input.dataCollectionId);
  await loadRow(ctx, collectionId);
  const all = (await listIndexRows(ctx.db, ctx.site.id, collectionId)).map((i) => i.doc as IndexDoc);
  const limit = input.paging?.limit ?? PAGE_DEFAULT;
  const offset = input.paging?.offset ?? 0;
  const page = all.slice(offset, offset + limit);
  return { indexes: page, offset, total: all.length };
}

export async function availableIndexes(ctx: RequestContext, input: { dataCollectionId?: unknown }): Promise<IndexQuota> {
  const collectionId = requireCollectionId(input.dataCollectionId);
  await loadRow(ctx, collectionId);
  const all = (await listIndexRows(ctx.db, ctx.site.id, collectionId)).map((i) => i.doc as IndexDoc);
  const uniques = all.filter((i) => i.unique).length;
  const regular = Math.max(0, INDEX_LIMITS.regular - (all.length - uniques));
  return { regular, unique: Math.max(0, INDEX_LIMITS.unique - uniques), total: Math.max(0, INDEX_LIMITS.total - all.length) };
}
