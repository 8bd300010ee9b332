/** Caller shapes of the V1 product wire types (`_id`, `_createdDate`, dates as Date): see wire-types.ts. */
import type * as wire from '@vitrine/types/stores';
import type { FromWire } from '../../wire-types.js';

export type MediaItem = FromWire<wire.MediaItem>;
export type Choice = FromWire<wire.Choice>;
export type ProductOption = FromWire<wire.ProductOption>;
export type CostAndProfitData = wire.CostAndProfit;
export type Variant = FromWire<wire.Variant>;
/** A V1 product in the caller's names (`_id`, `_createdDate`); dates are Date objects. */
export type Product = FromWire<wire.ProductV1>;

