import type { ProductV3Input, VariantV3 } from '../../lib/catalog';

export type VariantV3Input = ProductV3Input['variantsInfo']['variants'][number];

/**
 * A stored variant as the update call takes it back. The call replaces the whole list, so every field
 * the server keeps is sent (a field left out would be cleared); the id keeps the variant's stock.
 * Digital files are left out on purpose: absent on an update, the variant keeps its file.
 */
export function variantV3Input(v: VariantV3): VariantV3Input {
  return {
    _id: v._id, visible: v.visible, sku: v.sku ?? null, barcode: v.barcode ?? null,
    choices: v.choices.map((c) => ({ optionChoiceIds: c.optionChoiceIds })),
    price: { actualPrice: { amount: v.price.actualPrice.amount }, compareAtPrice: v.price.compareAtPrice ? { amount: v.price.compareAtPrice.amount } : null },
    revenueDetails: v.revenueDetails ? { cost: { amount: v.revenueDetails.cost.amount } } : null,
    physicalProperties: v.physicalProperties ?? null,
  };
}
