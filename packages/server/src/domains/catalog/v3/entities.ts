import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../../http/context.js';
import { conflict, notFound, ValidationError } from '../../../http/errors.js';
import { parseFilter, parseSort } from '../../../storage/filter.js';
import { withFilterErrors } from '../../../http/filter-errors.js';
import { inTransaction } from '../../../storage/transaction.js';
import { recordEvent } from '../../events/index.js';
import { openCursor, signCursor } from '../cursor.js';
import { PAGE_DEFAULT } from '../schema.js';
import { richText } from './model.js';
import { deleteEntity, entitySortColumn, findEntity, insertEntity, queryEntities, updateEntity, type EntityKind, type EntityRow } from './store.js';

/**
 * Ribbons, brands and info sections (V3): named entities products point at. A ribbon or brand is
 * `{id, revision, createdDate, updatedDate, name}`; an info section is keyed by `uniqueName` and adds
 * `title` and a rich-text `description`. Renames and deletes reach the products that use them
 * (see v3/service.ts `entityChanged`).
 */

export const ENTITY_FQDN: Record<EntityKind, string> = {
  ribbon: 'wix.stores.catalog.v3.ribbon', brand: 'wix.stores.catalog.v3.brand', infoSection: 'wix.stores.catalog.v3.info_section',
};
export const ENTITY_ERR: Record<EntityKind, string> = { ribbon: 'RIBBON', brand: 'BRAND', infoSection: 'INFO_SECTION' };

export interface EntityInput { name?: string | null | undefined; uniqueName?: string | null | undefined; title?: string | null | undefined; description?: unknown; revision?: string | null | undefined }

export function presentEntity(kind: EntityKind, e: EntityRow): Record<string, unknown> {
  const base = { id: e.id, revision: String(e.revision), createdDate: e.createdDate, updatedDate: e.updatedDate };
  if (kind !== 'infoSection') return { ...base, name: e.name };
  return { ...base, uniqueName: e.name, title: e.doc.title ?? e.name, ...(e.doc.description ? { description: e.doc.description } : {}), plainDescription: richText(e.doc.description) };
}

function nameOf(kind: EntityKind, input: EntityInput, field: string): string {
  const name = (kind === 'infoSection' ? input.uniqueName : input.name)?.trim();
  if (!name) throw new ValidationError([{ field: `${field}.${kind === 'infoSection' ? 'uniqueName' : 'name'}`, description: 'is required', violatedRule: 'REQUIRED_FIELD', data: {} }]);
  return name;
}

function docOf(kind: EntityKind, input: EntityInput, name: string, prev?: Record<string, unknown>): Record<string, unknown> {
  if (kind !== 'infoSection') return {};
  return { title: input.title ?? prev?.title ?? name, ...(input.description !== undefined ? { description: input.description } : prev?.description !== undefined ? { description: prev.description } : {}) };
}

/** Hook the product service installs so entity renames and deletes update products in the same transaction. */
let onEntityChanged: ((ctx: RequestContext, kind: EntityKind, entity: EntityRow, deleted: boolean) => Promise<void>) | undefined;
export function setEntityChangeHook(fn: typeof onEntityChanged): void {
  onEntityChanged = fn;
}

export async function createEntity(ctx: RequestContext, kind: EntityKind, input: EntityInput, field: string = kind) {
  const name = nameOf(kind, input, field);
  return inTransaction(ctx.db, async (trx) => {
    if (await findEntity(trx, ctx.site.id, kind, { name })) throw conflict(`${ENTITY_ERR[kind]}_ALREADY_EXISTS`, `A ${kind} named "${name}" already exists`, { name });
    const now = new Date().toISOString();
    const e: EntityRow = { id: randomUUID(), name, doc: docOf(kind, input, name), revision: 1, createdDate: now, updatedDate: now };
    await insertEntity(trx, ctx.site.id, kind, e);
    await recordEvent({ ...ctx, db: trx }, { entityFqdn: ENTITY_FQDN[kind], slug: 'created', entityId: e.id, entity: presentEntity(kind, e) });
    return e;
  });
}

/** The entity with this name, created when missing (used by product writes that name a brand or ribbon). */
export async function getOrCreateEntity(ctx: RequestContext, kind: EntityKind, input: EntityInput, field: string = kind): Promise<EntityRow> {
  const name = nameOf(kind, input, field);
  const found = await findEntity(ctx.db, ctx.site.id, kind, { name });
  return found ?? createEntity(ctx, kind, input, field);
}

export async function getEntity(ctx: RequestContext, kind: EntityKind, id: string): Promise<EntityRow> {
  const e = await findEntity(ctx.db, ctx.site.id, kind, { id });
  if (!e) throw notFound(`${ENTITY_ERR[kind]}_NOT_FOUND`, `${kind} ${id} not found`);
  return e;
}

export async function updateEntityById(ctx: RequestContext, kind: EntityKind, id: string, input: EntityInput) {
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const cur = await getEntity(tctx, kind, id);
    if (input.revision && input.revision !== String(cur.revision)) throw conflict('REVISION_MISMATCH', `${kind} ${id} has revision ${cur.revision}`, { currentRevision: String(cur.revision) });
    const name = (kind === 'infoSection' ? input.uniqueName : input.name)?.trim() || cur.name;
    if (name !== cur.name && await findEntity(trx, ctx.site.id, kind, { name })) throw conflict(`${ENTITY_ERR[kind]}_ALREADY_EXISTS`, `A ${kind} named "${name}" already exists`, { name });
    const next: EntityRow = { ...cur, name, doc: docOf(kind, input, name, cur.doc), revision: cur.revision + 1, updatedDate: new Date().toISOString() };
    await updateEntity(trx, ctx.site.id, kind, next);
    await onEntityChanged?.(tctx, kind, next, false);
    await recordEvent(tctx, { entityFqdn: ENTITY_FQDN[kind], slug: 'updated', entityId: id, entity: presentEntity(kind, next) });
    return next;
  });
}

export async function deleteEntityById(ctx: RequestContext, kind: EntityKind, id: string): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const cur = await getEntity(tctx, kind, id);
    await deleteEntity(trx, ctx.site.id, kind, id);
    await onEntityChanged?.(tctx, kind, cur, true);
    await recordEvent(tctx, { entityFqdn: ENTITY_FQDN[kind], slug: 'deleted', entityId: id, entity: presentEntity(kind, cur) });
  });
}

export async function queryEntityPage(ctx: RequestContext, kind: EntityKind, query: { filter?: unknown; sort?: unknown; cursorPaging?: { limit?: number | undefined; cursor?: string | null | undefined } | undefined; paging?: { limit?: number | undefined; offset?: number | undefined } | undefined }) {
  const KIND = `entities.${kind}`;
  let { filter, sort } = query;
  let offset = query.paging?.offset ?? 0;
  let limit = query.cursorPaging?.limit ?? query.paging?.limit ?? PAGE_DEFAULT;
  if (query.cursorPaging?.cursor) {
    const s = await openCursor(ctx.db, ctx.site.id, KIND, query.cursorPaging.cursor, 'query.cursorPaging.cursor');
    ({ filter, sort, offset } = s);
    limit = query.cursorPaging.limit ?? s.limit;
  }
  const { rows } = await withFilterErrors('query', async () => queryEntities(ctx.db, {
    siteId: ctx.site.id, kind, dialect: ctx.dialect, filter: parseFilter(filter), sort: parseSort(sort, entitySortColumn), limit: limit + 1, offset,
  }));
  const hasNext = rows.length > limit;
  const page = rows.slice(0, limit);
  const state = { kind: KIND, filter, sort, limit };
  return {
    items: page.map((e) => presentEntity(kind, e)),
    pagingMetadata: {
      count: page.length, hasNext,
      cursors: {
        next: hasNext ? await signCursor(ctx.db, ctx.site.id, { ...state, offset: offset + limit }) : null,
        prev: offset > 0 ? await signCursor(ctx.db, ctx.site.id, { ...state, offset: Math.max(0, offset - limit) }) : null,
      },
    },
  };
}

export async function countEntities(ctx: RequestContext, kind: EntityKind, filter: unknown): Promise<{ count: number }> {
  const { count } = await withFilterErrors('filter', async () => queryEntities(ctx.db, { siteId: ctx.site.id, kind, dialect: ctx.dialect, filter: parseFilter(filter), sort: [], limit: 0, offset: 0, countOnly: true }));
  return { count };
}

