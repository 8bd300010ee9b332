/**
 * Tax regions (`@vitrine/sdk/ecom` -> `taxRegions`), after the public ecom taxRegions module, plus our
 * extensions: a region's manual rates and the site's tax settings. Elevated. Rules: docs/pricing-setup.md.
 */
import type * as wire from '@vitrine/types/ecom-rules';
import { defineMethod } from '../../define.js';
import { cursorQuery } from '../../query/cursor.js';
import type { FromWire } from '../../wire-types.js';

export type TaxRegion = FromWire<wire.TaxRegion>;
export type TaxRegionInput = FromWire<wire.TaxRegionInput>;
export type BulkCreateTaxRegionResponse = FromWire<wire.BulkCreateTaxRegionResponse>;
export type ManualTaxRate = FromWire<wire.ManualTaxRate>;
export type ManualTaxRateInput = wire.ManualTaxRateInput;
export type TaxSettings = wire.TaxSettings;

const P = '/billing/v1/tax-regions';
const ONE = { dates: ['taxRegion.createdDate', 'taxRegion.updatedDate'] };
const ARG = { taxRegionId: '_id' } as const;

/** `taxRegions.createTaxRegion({ country, subdivision?, taxIncludedInPrice? })` -> the region. */
export const createTaxRegion = defineMethod(async (client, taxRegion: TaxRegionInput) =>
  (await client.request<{ taxRegion: TaxRegion }>({ method: 'POST', path: P, payload: { taxRegion }, decode: ONE })).taxRegion);

/** `taxRegions.bulkCreateTaxRegion(taxRegions, { returnEntity })` -> `{ results, bulkActionMetadata }`. */
export const bulkCreateTaxRegion = defineMethod((client, taxRegions: TaxRegionInput[], options: { returnEntity?: boolean } = {}) =>
  client.request<BulkCreateTaxRegionResponse>({
    method: 'POST', path: '/billing/v1/bulk/tax-regions/create', payload: { taxRegions, ...options }, decode: { dates: ['results.item.createdDate', 'results.item.updatedDate'] },
  }));

/** `taxRegions.getTaxRegion(taxRegionId)` -> the region. */
export const getTaxRegion = defineMethod(async (client, taxRegionId: string) =>
  (await client.request<{ taxRegion: TaxRegion }>({ method: 'GET', path: `${P}/${encodeURIComponent(taxRegionId)}`, payload: { taxRegionId }, decode: ONE, argumentFields: ARG })).taxRegion);

/** `taxRegions.updateTaxRegion(_id, { revision, ...changes })` -> the region. */
export const updateTaxRegion = defineMethod(async (client, _id: string, taxRegion: TaxRegionInput & { revision: string }) =>
  (await client.request<{ taxRegion: TaxRegion }>({ method: 'PATCH', path: `${P}/${encodeURIComponent(_id)}`, payload: { taxRegion: { ...taxRegion, _id } }, decode: ONE })).taxRegion);

/** `taxRegions.deleteTaxRegion(taxRegionId)` (its manual rates go with it). */
export const deleteTaxRegion = defineMethod(async (client, taxRegionId: string): Promise<void> => {
  await client.request({ method: 'DELETE', path: `${P}/${encodeURIComponent(taxRegionId)}`, payload: { taxRegionId }, argumentFields: ARG });
});

/** `taxRegions.queryTaxRegions().eq('country', 'US').find()`. */
export const queryTaxRegions = defineMethod((client) =>
  cursorQuery<TaxRegion, '_id' | 'country' | 'subdivision' | 'appId' | 'taxIncludedInPrice' | '_createdDate' | '_updatedDate'>(async (query) => {
    const res = await client.request<{ taxRegions?: TaxRegion[]; pagingMetadata?: wire.QueryTaxRegionsResponse['pagingMetadata'] }>({
      method: 'POST', path: `${P}/query`, payload: { query }, decode: { dates: ['taxRegions.createdDate', 'taxRegions.updatedDate'] },
    });
    return { items: res.taxRegions ?? [], cursors: res.pagingMetadata?.cursors ?? {}, hasNext: res.pagingMetadata?.hasNext ?? false };
  }));

/** Our extension: the region's manual rates -> `{ taxRegionId, manualRates }`. */
export const getManualRates = defineMethod((client, taxRegionId: string) =>
  client.request<{ taxRegionId: string; manualRates: ManualTaxRate[] }>({ method: 'GET', path: `${P}/${encodeURIComponent(taxRegionId)}/manual-rates`, payload: { taxRegionId } }));

/** Our extension: replaces the region's manual rates -> `{ taxRegionId, manualRates }`. */
export const setManualRates = defineMethod((client, taxRegionId: string, manualRates: ManualTaxRateInput[]) =>
  client.request<{ taxRegionId: string; manualRates: ManualTaxRate[] }>({ method: 'PUT', path: `${P}/${encodeURIComponent(taxRegionId)}/manual-rates`, payload: { manualRates } }));

/** Our extension: the site's tax settings -> `{ taxSettings }`. */
export const getTaxSettings = defineMethod((client) =>
  client.request<{ taxSettings: TaxSettings }>({ method: 'GET', path: '/billing/v1/tax-settings' }));

/** Our extension: updates the tax settings (fields given) -> `{ taxSettings }`. */
export const updateTaxSettings = defineMethod((client, taxSettings: Partial<TaxSettings>) =>
  client.request<{ taxSettings: TaxSettings }>({ method: 'PATCH', path: '/billing/v1/tax-settings', payload: { taxSettings } }));
