/** Per-variant data of a V1 product with managed variants (price, cost, SKU, weight, visibility). */
import { bindModule } from '@vitrine/sdk';
import { products } from '@vitrine/sdk/stores';
import { invalidates } from './keys.js';
import { useVitrineMutation } from './mutation.js';

type VariantOverride = Parameters<typeof products.updateProductVariants>[1][number];

/** `mutate({ productId, variants })` -> `products.updateProductVariants(productId, variants)`. */
export const useUpdateProductVariants = () =>
  useVitrineMutation(async (client, { productId, variants }: { productId: string; variants: VariantOverride[] }) => {
    await bindModule(products, client).updateProductVariants(productId, variants);
  }, invalidates.product);
