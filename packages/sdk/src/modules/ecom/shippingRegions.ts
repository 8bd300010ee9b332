/**
 * Shipping regions (`@vitrine/sdk/ecom` -> `shippingRegions`): our extension at
 * `/ecom/v1/shipping-regions`. Elevated. Rules: docs/pricing-setup.md.
 */
import type * as wire from '@vitrine/types/ecom-rules';
import { defineMethod } from '../../define.js';
import type { FromWire } from '../../wire-types.js';

export type ShippingRegion = FromWire<wire.ShippingRegion>;
export type ShippingRegionInput = wire.ShippingRegionInput;

const P = '/ecom/v1/shipping-regions';
const ONE = { dates: ['shippingRegion.createdDate', 'shippingRegion.updatedDate'] };
const ARG = { shippingRegionId: '_id' } as const;

/** `shippingRegions.createShippingRegion({ name, destinations, options })` -> the region. */
export const createShippingRegion = defineMethod(async (client, shippingRegion: ShippingRegionInput) =>
  (await client.request<{ shippingRegion: ShippingRegion }>({ method: 'POST', path: P, payload: { shippingRegion }, decode: ONE })).shippingRegion);

/** `shippingRegions.listShippingRegions()` -> `{ shippingRegions }` (oldest first). */
export const listShippingRegions = defineMethod((client) =>
  client.request<{ shippingRegions: ShippingRegion[] }>({ method: 'GET', path: P, decode: { dates: ['shippingRegions.createdDate', 'shippingRegions.updatedDate'] } }));

/** `shippingRegions.getShippingRegion(id)` -> the region. */
export const getShippingRegion = defineMethod(async (client, shippingRegionId: string) =>
  (await client.request<{ shippingRegion: ShippingRegion }>({ method: 'GET', path: `${P}/${encodeURIComponent(shippingRegionId)}`, payload: { shippingRegionId }, decode: ONE, argumentFields: ARG })).shippingRegion);

/** `shippingRegions.updateShippingRegion(id, { revision, ...changes })` -> the region. */
export const updateShippingRegion = defineMethod(async (client, shippingRegionId: string, shippingRegion: ShippingRegionInput & { revision: string }) =>
  (await client.request<{ shippingRegion: ShippingRegion }>({ method: 'PATCH', path: `${P}/${encodeURIComponent(shippingRegionId)}`, payload: { shippingRegion }, decode: ONE })).shippingRegion);

/** `shippingRegions.deleteShippingRegion(id)`. */
export const deleteShippingRegion = defineMethod(async (client, shippingRegionId: string): Promise<void> => {
  await client.request({ method: 'DELETE', path: `${P}/${encodeURIComponent(shippingRegionId)}`, payload: { shippingRegionId }, argumentFields: ARG });
});
