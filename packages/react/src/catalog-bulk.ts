/**
 * Catalog bulk actions of the product list (owner only): adjust prices by a percentage or amount
 * (one server call), add to a collection (one call), and hide or delete (one call per product, in
 * order, reporting progress after each so the page can show it).
 */
import { bindModule } from '@vitrine/sdk';
import { products } from '@vitrine/sdk/stores';
import { invalidates } from './keys.js';
import { useVitrineMutation } from './mutation.js';

type Adjustment = products.Adjustment;

export type ProductBulkAction =
  | { kind: 'adjust-price'; adjustment: Adjustment }
  | { kind: 'add-to-collection'; collectionId: string }
  | { kind: 'hide' }
  | { kind: 'show' }
  | { kind: 'delete' };

/** `{ succeeded, failed }` of a bulk action; `onProgress(done, total)` fires during per-product actions. */
export interface ProductBulkResult { succeeded: number; failed: number }

export const useProductBulkAction = () =>
  useVitrineMutation(async (client, { ids, action, onProgress }: { ids: string[]; action: ProductBulkAction; onProgress?: (done: number, total: number) => void }): Promise<ProductBulkResult> => {
    const p = bindModule(products, client);
    if (action.kind === 'adjust-price') {
      const res = await p.bulkAdjustProductProperty({ price: action.adjustment }, ids);
      return { succeeded: res.bulkActionMetadata.totalSuccesses, failed: res.bulkActionMetadata.totalFailures };
    }
    if (action.kind === 'add-to-collection') {
      await p.addProductsToCollection(action.collectionId, ids);
      return { succeeded: ids.length, failed: 0 };
    }
    let succeeded = 0;
    let failed = 0;
    for (const [i, id] of ids.entries()) {
      try {
        if (action.kind === 'delete') await p.deleteProduct(id);
        else await p.updateProduct(id, { visible: action.kind === 'show' });
        succeeded++;
      } catch {
        failed++;
      }
      onProgress?.(i + 1, ids.length);
    }
    return { succeeded, failed };
  }, invalidates.product);
