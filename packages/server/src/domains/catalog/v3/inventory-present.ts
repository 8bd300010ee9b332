import type { InventoryItemV3 } from '@vitrine/types/stores';
import type { InventoryRow } from '../../inventory/index.js';

/** An inventory item as V3 sends it: one per variant, with PREORDER availability when sold out but preorderable. */
export function presentItem(r: InventoryRow): InventoryItemV3 {
  const qty = r.quantity ?? 0;
  const availabilityStatus = r.trackQuantity
    ? (qty > 0 ? 'IN_STOCK' : r.preorderEnabled ? 'PREORDER' : 'OUT_OF_STOCK')
    : (r.inStock ? 'IN_STOCK' : r.preorderEnabled ? 'PREORDER' : 'OUT_OF_STOCK');
  return {
    id: r.id, revision: String(r.revision), createdDate: r.createdDate, updatedDate: r.updatedDate,
    variantId: r.variantId, locationId: r.locationId, productId: r.productId,
    trackQuantity: r.trackQuantity, ...(r.trackQuantity ? { quantity: qty } : {}), inStock: r.trackQuantity ? qty > 0 : r.inStock,
    availabilityStatus,
    preorderInfo: { enabled: r.preorderEnabled, ...(r.preorderMessage ? { message: r.preorderMessage } : {}), ...(r.preorderLimit != null ? { limit: r.preorderLimit } : {}), counter: r.preorderCounter, ...(r.trackQuantity && qty < 0 ? { quantity: -qty } : {}) },
  };
}
