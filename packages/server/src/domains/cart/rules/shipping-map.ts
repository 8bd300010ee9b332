import type { ShippingOptionInput, ShippingRate as EngineRate, ShippingRegionInput } from '../pricing/index.js';
import type { ShippingOption, ShippingRate, ShippingRegionRecord } from './model.js';

/** A stored shipping rate as the engine's tagged union (the schema guaranteed the type's own field). */
export function rateToEngine(rate: ShippingRate): EngineRate {
  switch (rate.type) {
    case 'FLAT': return { type: 'FLAT', price: rate.price ?? '0' };
    case 'FREE': return { type: 'FREE' };
    case 'BY_WEIGHT': return { type: 'BY_WEIGHT', ranges: (rate.weightRanges ?? []).map((r) => ({ upTo: r.upTo ?? null, price: r.price })) };
    case 'BY_SUBTOTAL': return { type: 'BY_SUBTOTAL', ranges: (rate.subtotalRanges ?? []).map((r) => ({ upTo: r.upTo ?? null, price: r.price })) };
  }
}

function optionToEngine(o: ShippingOption): ShippingOptionInput {
  return {
    code: o.code,
    title: o.title,
    rate: rateToEngine(o.rate),
    freeOver: o.freeOver ?? null,
    deliveryWindow: o.deliveryWindow ?? null,
    deliveryTime: o.deliveryTime ?? null,
    pickup: o.pickup ?? null,
  };
}

export function shippingRegionToEngine(r: ShippingRegionRecord): ShippingRegionInput {
  return { id: r.id, name: r.name, destinations: r.destinations, options: r.options.map(optionToEngine) };
}
