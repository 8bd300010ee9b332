/**
 * What other domains may use of inventory (docs/inventory.md): stock calls for variants of both
 * catalogs, reservations for carts and checkout, availability reads, and the stock-change listener.
 */
export {
  adjust, adjustKnown, availability, variantAvailabilityIfTracked, commit, getReservation, INVENTORY_LIMITS, InsufficientStockError, onStockChanged, pruneReservations, QuantityLimitError, release, reserve,
  RESERVATION_TTL_MS,
  type Availability, type ItemRef, type Reservation, type ReserveLine, type StockChange, type StockListener,
} from './service.js';
export { DEFAULT_LOCATION_ID, toInventoryRow, type InventoryItemsTable, type InventoryRow, type StockPatch } from './store.js';
export {
  defaultItemsOf, defaultItemsOfProducts, deleteItemRow, deleteProductItems, getItem, insertItem, itemsOfVariant, listItems, skuUsedElsewhere, syncVariantItems, v3ItemsAt, variantsWithItemsOf,
} from './items.js';
export type { Catalog, NewInventoryItem, VariantStock } from './store.js';
