/** Owner writes of the catalog (an API-key client); each invalidates what it makes stale (keys.ts). */
import { bindModule } from '@vitrine/sdk';
import { inventory, products } from '@vitrine/sdk/stores';
import * as media from '@vitrine/sdk/media';
import { invalidates } from './keys.js';
import { useVitrineMutation } from './mutation.js';

type ProductInput = products.ProductInput;
type ProductUpdate = products.ProductUpdate;
type VariantStock = Parameters<typeof inventory.updateInventoryVariants>[1];
type CollectionInput = Parameters<typeof products.createCollection>[0];
type CollectionUpdate = Parameters<typeof products.updateCollection>[1];

export const useCreateProduct = () =>
  useVitrineMutation(async (client, product: ProductInput) => (await bindModule(products, client).createProduct(product)).product, invalidates.product);

export const useUpdateProduct = () =>
  useVitrineMutation(async (client, { _id, product }: { _id: string; product: ProductUpdate }) => (await bindModule(products, client).updateProduct(_id, product)).product, invalidates.product);

export const useDeleteProduct = () =>
  useVitrineMutation(async (client, _id: string) => { await bindModule(products, client).deleteProduct(_id); }, invalidates.product);

/** Stock of a product with managed variants: `inventory.updateInventoryVariants(productId, inventoryItem)`. */
export const useUpdateInventoryVariants = () =>
  useVitrineMutation(async (client, { productId, inventoryItem }: { productId: string; inventoryItem: VariantStock }) => {
    await bindModule(inventory, client).updateInventoryVariants(productId, inventoryItem);
  }, invalidates.product);

/** Uploads an image (`media.uploadFile`) and adds it to the product (`products.addProductMedia`). */
export const useUploadProductImage = () =>
  useVitrineMutation(async (client, { productId, file, fileName }: { productId: string; file: Blob; fileName: string }) => {
    const stored = await bindModule(media, client).uploadFile(file, fileName);
    await bindModule(products, client).addProductMedia(productId, [{ mediaId: stored.id }]);
    return stored;
  }, invalidates.product);

export const useRemoveProductMedia = () =>
  useVitrineMutation(async (client, { productId, mediaIds }: { productId: string; mediaIds: string[] }) => {
    await bindModule(products, client).removeProductMedia(productId, mediaIds);
  }, invalidates.product);

export const useCreateCollection = () =>
  useVitrineMutation(async (client, collection: CollectionInput) => (await bindModule(products, client).createCollection(collection)).collection, invalidates.collection);

export const useUpdateCollection = () =>
  useVitrineMutation(async (client, { _id, collection }: { _id: string; collection: CollectionUpdate }) => (await bindModule(products, client).updateCollection(_id, collection)).collection, invalidates.collection);

export const useDeleteCollection = () =>
  useVitrineMutation(async (client, _id: string) => { await bindModule(products, client).deleteCollection(_id); }, invalidates.collection);

export const useAddProductsToCollection = () =>
  useVitrineMutation(async (client, { _id, productIds }: { _id: string; productIds: string[] }) => {
    await bindModule(products, client).addProductsToCollection(_id, productIds);
  }, invalidates.collection);

export const useRemoveProductsFromCollection = () =>
  useVitrineMutation(async (client, { _id, productIds }: { _id: string; productIds: string[] }) => {
    await bindModule(products, client).removeProductsFromCollection(_id, productIds);
  }, invalidates.collection);
