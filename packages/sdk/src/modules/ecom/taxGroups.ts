/**
 * Tax groups (`@vitrine/sdk/ecom` -> `taxGroups`), after the public ecom taxGroups module. Elevated.
 * The default groups have fixed ids on every site and cannot be changed. Rules: docs/pricing-setup.md.
 */
import type * as wire from '@vitrine/types/ecom-rules';
import { defineMethod } from '../../define.js';
import { cursorQuery } from '../../query/cursor.js';
import type { FromWire } from '../../wire-types.js';

export type TaxGroup = FromWire<wire.TaxGroup>;
export type ListDefaultTaxGroupsByAppIdsResponse = FromWire<wire.ListDefaultTaxGroupsByAppIdsResponse>;

const P = '/billing/v1/tax-groups';
const ONE = { dates: ['taxGroup.createdDate', 'taxGroup.updatedDate'] };
const ARG = { taxGroupId: '_id' } as const;

/** `taxGroups.createTaxGroup({ name })` -> the group. */
export const createTaxGroup = defineMethod(async (client, taxGroup: { name: string }) =>
  (await client.request<{ taxGroup: TaxGroup }>({ method: 'POST', path: P, payload: { taxGroup }, decode: ONE })).taxGroup);

/** `taxGroups.getTaxGroup(taxGroupId)` -> the group (the site's or a default one). */
export const getTaxGroup = defineMethod(async (client, taxGroupId: string) =>
  (await client.request<{ taxGroup: TaxGroup }>({ method: 'GET', path: `${P}/${encodeURIComponent(taxGroupId)}`, payload: { taxGroupId }, decode: ONE, argumentFields: ARG })).taxGroup);

/** `taxGroups.updateTaxGroup(_id, { name, revision })` -> the group. */
export const updateTaxGroup = defineMethod(async (client, _id: string, taxGroup: { name: string; revision: string }) =>
  (await client.request<{ taxGroup: TaxGroup }>({ method: 'PATCH', path: `${P}/${encodeURIComponent(_id)}`, payload: { taxGroup: { ...taxGroup, _id } }, decode: ONE })).taxGroup);

/** `taxGroups.deleteTaxGroup(taxGroupId)` (its manual rates go with it). */
export const deleteTaxGroup = defineMethod(async (client, taxGroupId: string): Promise<void> => {
  await client.request({ method: 'DELETE', path: `${P}/${encodeURIComponent(taxGroupId)}`, payload: { taxGroupId }, argumentFields: ARG });
});

/** `taxGroups.listDefaultTaxGroups()` -> `{ taxGroups }`. */
export const listDefaultTaxGroups = defineMethod((client) =>
  client.request<{ taxGroups: TaxGroup[] }>({ method: 'GET', path: `${P}/default-tax-groups`, decode: { dates: ['taxGroups.createdDate', 'taxGroups.updatedDate'] } }));

/** `taxGroups.listDefaultTaxGroupsByAppIds(appIds)` -> `{ results, bulkActionMetadata }`. */
export const listDefaultTaxGroupsByAppIds = defineMethod((client, appIds: string[]) =>
  client.request<ListDefaultTaxGroupsByAppIdsResponse>({
    method: 'POST', path: `${P}/list-default-tax-groups-by-app-ids`, payload: { appIds }, decode: { dates: ['results.taxGroup.createdDate', 'results.taxGroup.updatedDate'] },
  }));

/** `taxGroups.queryTaxGroups().eq('name', 'Books').find()`: the site's own groups. */
export const queryTaxGroups = defineMethod((client) =>
  cursorQuery<TaxGroup, '_id' | 'name' | '_createdDate' | '_updatedDate'>(async (query) => {
    const res = await client.request<{ taxGroups?: TaxGroup[]; pagingMetadata?: wire.QueryTaxGroupsResponse['pagingMetadata'] }>({
      method: 'POST', path: `${P}/query`, payload: { query }, decode: { dates: ['taxGroups.createdDate', 'taxGroups.updatedDate'] },
    });
    return { items: res.taxGroups ?? [], cursors: res.pagingMetadata?.cursors ?? {}, hasNext: res.pagingMetadata?.hasNext ?? false };
  }));
