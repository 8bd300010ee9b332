/**
 * Product editor writes that take more than one SDK call: moving a product's images into a new
 * order, and setting which collections hold a product. Each invalidates what it makes stale.
 */
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { bindModule } from '@vitrine/sdk';
import { inventory, products } from '@vitrine/sdk/stores';
import { invalidates, queryKeys } from './keys.js';
import { useVitrineMutation } from './mutation.js';
import { useVitrineClient } from './provider.js';

type InventoryItemV3 = inventory.InventoryItemV3;
/** Most stock rows the editor reads for one product (variants x locations; the server's page bound). */
export const PRODUCT_STOCK_ROWS_MAX = 100;

/** Index of the first position where two id lists differ (their length when one is a prefix). */
export function firstDifference(a: readonly string[], b: readonly string[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * `mutate({ productId, current, order })`: the V1 media API only appends, so the items from the
 * first moved position on are taken off and added back in the new order (the uploaded files stay,
 * and an item's id is its file's id, so the re-added items keep their ids and URLs).
 */
export const useReorderProductMedia = () =>
  useVitrineMutation(async (client, { productId, current, order }: { productId: string; current: readonly string[]; order: readonly string[] }) => {
    if ([...current].sort().join() !== [...order].sort().join()) throw new Error('The new order must list the same images');
    const from = firstDifference(current, order);
    const moved = order.slice(from);
    if (moved.length === 0) return;
    const p = bindModule(products, client);
    await p.removeProductMedia(productId, moved);
    await p.addProductMedia(productId, moved.map((mediaId) => ({ mediaId })));
  }, invalidates.product);

/** `mutate({ productId, add, remove })`: the product joins the collections in `add` and leaves those in `remove`. */
export const useSetProductCollections = () =>
  useVitrineMutation(async (client, { productId, add, remove }: { productId: string; add: readonly string[]; remove: readonly string[] }) => {
    const p = bindModule(products, client);
    for (const id of add) await p.addProductsToCollection(id, [productId]);
    for (const id of remove) await p.removeProductsFromCollection(id, [productId]);
  }, invalidates.collection);

/**
 * Stock rows of one product, one per variant and location (the V3 inventory API serves V1 and V3
 * products alike). Kept under the product's key, so every product write refreshes it.
 */
export function useProductStockRows(productId: string | undefined): UseQueryResult<InventoryItemV3[]> {
  const client = useVitrineClient();
  return useQuery({
    queryKey: queryKeys.products.detail(productId ?? '', { stockRows: true }),
    queryFn: async () => (await bindModule(inventory, client).queryInventoryItems({ filter: { productId }, cursorPaging: { limit: PRODUCT_STOCK_ROWS_MAX } })).inventoryItems,
    enabled: Boolean(productId),
  });
}

export interface StockRowInput { productId: string; variantId: string; locationId: string; trackQuantity: boolean; quantity?: number; inStock?: boolean }

/** `mutate(rows)`: sets each row by product, variant and location (created when absent); throws the first refused row's reason. */
export const useSetStockRows = () =>
  useVitrineMutation(async (client, rows: StockRowInput[]) => {
    const res = await bindModule(inventory, client).bulkUpsertInventoryItems(rows.map((r) => ({ inventoryItem: r })));
    const refused = res.results.find((r) => !r.itemMetadata.success);
    if (refused) throw new Error(refused.itemMetadata.error?.description ?? 'A stock row was refused');
  }, invalidates.product);
