/**
 * Owner hooks of the V3 catalog (`productsV3`): a page of products, one product with its merchant
 * data (cost, profit), and its writes. Keys sit under the products area, so every product write
 * (V1 or V3) refreshes them together with stock rows.
 */
import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { bindModule } from '@vitrine/sdk';
import * as media from '@vitrine/sdk/media';
import { productsV3 } from '@vitrine/sdk/stores';
import { invalidates, queryKeys } from './keys.js';
import { useVitrineMutation, type QueryHookOptions } from './mutation.js';
import { useVitrineClient } from './provider.js';

type ProductV3 = productsV3.ProductV3;
type ProductV3Input = productsV3.ProductV3Input;
/** Merchant data (cost, profit, hidden products) is asked for on every owner read and write. */
const MERCHANT = { fields: ['MERCHANT_DATA'] };

export interface ProductsV3Options extends QueryHookOptions {
  limit?: number;
  /** The page's cursor (from the previous page's `pagingMetadata.cursors.next`). */
  cursor?: string;
  /** Free text over name, description, SKU, brand. */
  text?: string;
}

/** A page of V3 products, newest first (`productsV3.searchProducts`, cursor paging). */
export function useProductsV3(options: ProductsV3Options = {}): UseQueryResult<Awaited<ReturnType<typeof productsV3.searchProducts>>> {
  const client = useVitrineClient();
  const { enabled, keepPrevious, limit, cursor, text } = options;
  return useQuery({
    queryKey: queryKeys.products.list({ catalog: 'v3', limit, cursor, text }),
    queryFn: () => bindModule(productsV3, client).searchProducts({
      cursorPaging: { ...(limit ? { limit } : {}), ...(cursor ? { cursor } : {}) },
      // A cursor carries its query: only the first page names sort and text.
      ...(cursor ? {} : { sort: [{ fieldName: '_createdDate', order: 'DESC' as const }], ...(text?.trim() ? { search: { expression: text.trim() } } : {}) }),
    }, MERCHANT),
    enabled,
    placeholderData: keepPrevious ? keepPreviousData : undefined,
  });
}

/** One V3 product with cost and profit; disabled while `id` is empty. */
export function useProductV3(id: string | undefined): UseQueryResult<ProductV3> {
  const client = useVitrineClient();
  return useQuery({
    queryKey: queryKeys.products.detail(id ?? '', { catalog: 'v3' }),
    queryFn: () => bindModule(productsV3, client).getProduct(id!, MERCHANT),
    enabled: Boolean(id),
  });
}

export const useCreateProductV3 = () =>
  useVitrineMutation((client, product: ProductV3Input) => bindModule(productsV3, client).createProduct(product, MERCHANT), invalidates.product);

/** `mutate({ _id, product })`: `product.revision` is the one last read (a stale one is refused with 409). */
export const useUpdateProductV3 = () =>
  useVitrineMutation((client, { _id, product }: { _id: string; product: Partial<ProductV3Input> & { revision: string } }) => bindModule(productsV3, client).updateProduct(_id, product, MERCHANT), invalidates.product);

export const useDeleteProductV3 = () =>
  useVitrineMutation(async (client, _id: string) => { await bindModule(productsV3, client).deleteProduct(_id); }, invalidates.product);

/** `mutateAsync({ file, fileName })` -> the stored file (its `id` names it in a product's media items). */
export const useUploadMediaFile = () =>
  useVitrineMutation((client, { file, fileName }: { file: Blob; fileName: string }) => bindModule(media, client).uploadFile(file, fileName), () => []);
