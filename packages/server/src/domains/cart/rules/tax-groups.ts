import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../../http/context.js';
import { ApplicationError, conflict, notFound, violation } from '../../../http/errors.js';
import { inTransaction } from '../../../storage/transaction.js';
import { recordEvent } from '../../events/index.js';
import { STORES_APP_ID } from '../model.js';
import { TAX_GROUP_FQDN } from './events.js';
import { MAX_TAX_GROUPS } from './limits.js';
import type { TaxGroupInput, TaxGroupRecord } from './model.js';
import { col, queryPage, type Listing, type Page } from './paging.js';
import { presentTaxGroup } from './present.js';
import { changedMeanwhile, expectRevision, samePathId } from './revision.js';
import type { QueryInput } from './schema.js';
import { countTaxGroups, deleteTaxGroupRow, findTaxGroup, insertTaxGroup, listTaxGroupRows, updateTaxGroupRow } from './store-tax.js';
import { deleteManualRatesOfGroup } from './store-tax.js';

/**
 * Tax groups (ecom.taxGroups): kinds of goods taxed alike. The system-defined default groups have
 * fixed ids on every site and cannot be changed; owners add their own. Deleting a group removes its
 * manual rates with it (one transaction).
 */

const EPOCH = '2024-01-01T00:00:00.000Z';
/** The default group of each catalog app, with ids that never change (a line's `taxGroupId` may name them). */
export const DEFAULT_TAX_GROUPS: readonly (TaxGroupRecord & { appId: string })[] = [
  { id: '0f6f0e3c-44a1-4b0a-9d1e-3d8a4f2b7c01', name: 'Products', appId: STORES_APP_ID, revision: 1, createdDate: EPOCH, updatedDate: EPOCH },
  { id: '0f6f0e3c-44a1-4b0a-9d1e-3d8a4f2b7c02', name: 'Services', appId: '13d21c63-b5ec-5912-8397-c3a5ddb27a97', revision: 1, createdDate: EPOCH, updatedDate: EPOCH },
  { id: '0f6f0e3c-44a1-4b0a-9d1e-3d8a4f2b7c03', name: 'Event tickets', appId: '140603ad-af8d-84a5-2c80-a0f60cb47351', revision: 1, createdDate: EPOCH, updatedDate: EPOCH },
];
const defaultGroup = (id: string) => DEFAULT_TAX_GROUPS.find((g) => g.id === id);

const groupNotFound = (id: string) => notFound('TAX_GROUP_NOT_FOUND', `Tax group ${id} not found`, { taxGroupId: id });
const systemDefined = (id: string) => new ApplicationError(400, 'ILLEGAL_UPDATE_ON_SYSTEM_DEFINED_TAX_GROUP', 'A default tax group cannot be changed', { taxGroupId: id });

export function listDefaultTaxGroups(): TaxGroupRecord[] {
  return DEFAULT_TAX_GROUPS.map(({ appId: _a, ...g }) => g);
}

export function defaultTaxGroupsByAppIds(appIds: string[]) {
  const results = appIds.map((appId, originalIndex) => {
    const found = DEFAULT_TAX_GROUPS.find((g) => g.appId === appId);
    if (!found) {
      return { taxGroupMetadata: { originalIndex, success: false, error: { code: 'DEFAULT_TAX_GROUP_NOT_FOUND', description: `No default tax group for app ${appId}`, data: { appId } } } };
    }
    const { appId: _a, ...group } = found;
    return { taxGroupMetadata: { id: group.id, originalIndex, success: true }, taxGroup: presentTaxGroup(group) };
  });
  const ok = results.filter((r) => r.taxGroupMetadata.success).length;
  return { results, bulkActionMetadata: { totalSuccesses: ok, totalFailures: results.length - ok, undetailedFailures: 0 } };
}

/** A group the site may name: one of its own or a default one. */
export async function taxGroupExists(ctx: RequestContext, id: string): Promise<boolean> {
  return Boolean(defaultGroup(id) ?? await findTaxGroup(ctx.db, ctx.site.id, id));
}

export async function createTaxGroup(ctx: RequestContext, input: TaxGroupInput): Promise<TaxGroupRecord> {
  if (!input.name) throw violation('taxGroup.name', 'is required', 'REQUIRED_FIELD');
  const now = new Date().toISOString();
  const group: TaxGroupRecord = { id: randomUUID(), name: input.name, revision: 1, createdDate: now, updatedDate: now };
  return inTransaction(ctx.db, async (trx) => {
    if (await countTaxGroups(trx, ctx.site.id) >= MAX_TAX_GROUPS) throw conflict('MAX_TAX_GROUPS_REACHED', `A site has at most ${MAX_TAX_GROUPS} tax groups`, { max: MAX_TAX_GROUPS });
    await insertTaxGroup(trx, ctx.site.id, group);
    await recordEvent({ ...ctx, db: trx }, { entityFqdn: TAX_GROUP_FQDN, slug: 'created', entityId: group.id, entity: presentTaxGroup(group) });
    return group;
  });
}

export async function getTaxGroup(ctx: RequestContext, id: string): Promise<TaxGroupRecord> {
  const builtIn = defaultGroup(id);
  if (builtIn) return listDefaultTaxGroups().find((g) => g.id === id)!;
  const group = await findTaxGroup(ctx.db, ctx.site.id, id);
  if (!group) throw groupNotFound(id);
  return group;
}

export async function updateTaxGroup(ctx: RequestContext, id: string, input: TaxGroupInput): Promise<TaxGroupRecord> {
  samePathId(input.id, id, 'taxGroup.id');
  if (defaultGroup(id)) throw systemDefined(id);
  return inTransaction(ctx.db, async (trx) => {
    const current = await findTaxGroup(trx, ctx.site.id, id);
    if (!current) throw groupNotFound(id);
    const expected = expectRevision(input.revision, current.revision, 'taxGroup.revision');
    const next: TaxGroupRecord = { ...current, name: input.name ?? current.name, revision: current.revision + 1, updatedDate: new Date().toISOString() };
    if (!(await updateTaxGroupRow(trx, ctx.site.id, next, expected))) throw changedMeanwhile(id);
    await recordEvent({ ...ctx, db: trx }, { entityFqdn: TAX_GROUP_FQDN, slug: 'updated', entityId: id, entity: presentTaxGroup(next) });
    return next;
  });
}

export async function deleteTaxGroup(ctx: RequestContext, id: string): Promise<void> {
  if (defaultGroup(id)) throw systemDefined(id);
  await inTransaction(ctx.db, async (trx) => {
    const current = await findTaxGroup(trx, ctx.site.id, id);
    if (!current) throw groupNotFound(id);
    await deleteManualRatesOfGroup(trx, ctx.site.id, id);
    await deleteTaxGroupRow(trx, ctx.site.id, id);
    await recordEvent({ ...ctx, db: trx }, { entityFqdn: TAX_GROUP_FQDN, slug: 'deleted', entityId: id, entity: presentTaxGroup(current) });
  });
}

const GROUPS: Listing<TaxGroupRecord> = {
  kind: 'cart-rules.tax-groups',
  fields: {
    id: { expr: col('id'), type: 'string' },
    name: { expr: col('name'), type: 'string' },
    createdDate: { expr: col('created_date'), type: 'date' },
    updatedDate: { expr: col('updated_date'), type: 'date' },
  },
  sortable: { id: col('id'), name: col('name'), createdDate: col('created_date'), updatedDate: col('updated_date') },
  idColumn: col('id'),
  defaultSort: [{ fieldName: 'createdDate', order: 'ASC' }],
  list: listTaxGroupRows,
};

/** The site's own groups (the defaults are listed by listDefaultTaxGroups). */
export function queryTaxGroups(ctx: RequestContext, query: QueryInput | undefined): Promise<Page<TaxGroupRecord>> {
  return queryPage(ctx, GROUPS, query);
}
