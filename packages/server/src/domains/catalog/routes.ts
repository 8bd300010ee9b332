import { z } from 'zod';
import { publicRoute, route, type RouteDef } from '../../http/route.js';
import {
  bulkAdjustProperty, bulkUpdateProperty, createProduct, deleteOptions, deleteProduct, getProductAnswer, peekProductAnswerV1, productOptionsAvailability,
  queryProductVariants, queryProducts, removeBrand, removeRibbon, resetVariants, updateProduct, updateVariants,
} from './service.js';
import {
  addProductsToCollection, createCollection, deleteCollection, getCollection, getCollectionBySlug, queryCollections, removeProductsFromCollection, updateCollection,
} from './collections.js';
import { addMediaToChoices, addProductMedia, removeMediaFromChoices, removeProductMedia } from './media.js';
import { serveMedia } from './media-files.js';
import { productAnswer, variantsAnswer } from './present.js';
import { decrementInventory, getInventoryVariants, getStoreVariant, incrementInventory, queryInventory, queryStoreVariants, updateInventoryVariants } from './inventory.js';
import {
  addMediaRequest, bulkAdjustRequest, bulkUpdateRequest, choicesMediaRequest, collectionProductsRequest, createCollectionRequest, createProductRequest,
  decrementInventoryRequest, getProductRequest, idRequest, incrementInventoryRequest, inventoryVariantsRequest, optionsAvailabilityRequest, productResponse,
  productVariantsQueryRequest, queryCollectionsRequest, queryInventoryRequest, queryProductsRequest, queryProductsResponse, removeMediaRequest, slugRequest,
  storeVariantsQueryRequest, updateCollectionRequest, updateInventoryRequest, updateProductRequest, updateVariantsRequest,
} from './schema.js';
import { v3Routes } from './v3/routes.js';

const productReads: RouteDef[] = [
  route({
    method: 'GET', path: '/stores-reader/v1/products/query-platformized', postTwin: true, access: 'visitor',
    summary: 'Query products (V1): filter, sort, offset or cursor paging, optional full-text search',
    request: queryProductsRequest, response: queryProductsResponse,
    handler: (ctx, input) => queryProducts(ctx, input.query ?? {}),
  }),
  route({
    method: 'GET', path: '/stores-reader/v1/products/:id', access: 'visitor',
    summary: 'Get a product (V1); merchant data only for elevated callers',
    request: getProductRequest, response: productResponse,
    handler: (ctx, input) => getProductAnswer(ctx, input.id, input.includeMerchantSpecificData),
    keptAnswer: (peek, params) => peekProductAnswerV1(peek, params.id!),
  }),
  route({
    method: 'POST', path: '/stores-reader/v1/products/:id/productOptionsAvailability', access: 'visitor',
    summary: 'Availability of option choices and the variant they select',
    request: optionsAvailabilityRequest,
    handler: (ctx, input) => productOptionsAvailability(ctx, input.id, input.options ?? {}),
  }),
  route({
    method: 'POST', path: '/stores-reader/v1/products/:id/variants/query', access: 'visitor',
    summary: 'Variants of a product by choices or ids',
    request: productVariantsQueryRequest,
    handler: (ctx, input) => queryProductVariants(ctx, input),
  }),
  route({
    method: 'POST', path: '/stores-reader/v1/variants/query', access: 'visitor',
    summary: 'Query store variants across products',
    request: storeVariantsQueryRequest,
    handler: (ctx, input) => queryStoreVariants(ctx, input.query ?? {}),
  }),
  route({
    method: 'GET', path: '/stores-reader/v1/variants/:id', access: 'visitor',
    summary: 'Get a store variant (`<productId>-<variantId>`)',
    request: idRequest,
    handler: (ctx, input) => getStoreVariant(ctx, input.id),
  }),
];

const idWrite = (path: string, summary: string, fn: (ctx: Parameters<Parameters<typeof route>[0]['handler']>[0], id: string) => Promise<unknown>, method: 'POST' | 'DELETE' = 'POST') =>
  route({ method, path, access: 'elevated', summary, request: idRequest, handler: (ctx, input) => fn(ctx, input.id) });

const productWrites: RouteDef[] = [
  route({
    method: 'POST', path: '/stores/v1/products', access: 'elevated', summary: 'Create a product (V1; honours Idempotency-Key)',
    request: createProductRequest, response: productResponse, idempotent: true,
    handler: async (ctx, input) => productAnswer(ctx, await createProduct(ctx, input.product)),
  }),
  route({
    method: 'PATCH', path: '/stores/v1/products/:productId', access: 'elevated', summary: 'Update a product (V1, partial)',
    request: updateProductRequest, response: productResponse,
    handler: async (ctx, input) => productAnswer(ctx, await updateProduct(ctx, input.productId, input.product)),
  }),
  idWrite('/stores/v1/products/:id', 'Delete a product (V1)', deleteProduct, 'DELETE'),
  route({
    method: 'PATCH', path: '/stores/v1/products/:id/variants', access: 'elevated', summary: 'Change variants (price, cost, weight, SKU, visibility)',
    request: updateVariantsRequest,
    handler: async (ctx, input) => variantsAnswer(ctx, await updateVariants(ctx, input.id, input.variants)),
  }),
  idWrite('/stores/v1/products/:id/variants/resetToDefault', 'Reset every variant to the product defaults', resetVariants),
  idWrite('/stores/v1/products/:id/options', 'Delete the options of a product', deleteOptions, 'DELETE'),
  idWrite('/stores/v1/products/:id/remove-brand', 'Remove the brand of a product', removeBrand),
  idWrite('/stores/v1/products/:id/remove-ribbon', 'Remove the ribbon of a product', removeRibbon),
  route({
    method: 'POST', path: '/stores/v1/products/:id/media', access: 'elevated', summary: 'Add media to a product (and optionally a choice)',
    request: addMediaRequest, handler: (ctx, input) => addProductMedia(ctx, input.id, input.media),
  }),
  route({
    method: 'POST', path: '/stores/v1/products/:id/media/delete', access: 'elevated', summary: 'Remove media from a product (all when no ids)',
    request: removeMediaRequest, handler: (ctx, input) => removeProductMedia(ctx, input.id, input.mediaIds),
  }),
  route({
    method: 'PATCH', path: '/stores/v1/products/:id/choices/media', access: 'elevated', summary: 'Assign product media to option choices',
    request: choicesMediaRequest, handler: (ctx, input) => addMediaToChoices(ctx, input.id, input.media),
  }),
  route({
    method: 'POST', path: '/stores/v1/products/:id/choices/media/delete', access: 'elevated', summary: 'Remove media from option choices',
    request: choicesMediaRequest, handler: (ctx, input) => removeMediaFromChoices(ctx, input.id, input.media),
  }),
  route({
    method: 'POST', path: '/stores/v1/bulk/products/update', access: 'elevated', summary: 'Set price, cost, weight, ribbon or brand of many products',
    request: bulkUpdateRequest, handler: (ctx, input) => bulkUpdateProperty(ctx, input.ids, input.set),
  }),
  route({
    method: 'POST', path: '/stores/v1/bulk/products/adjust-properties', access: 'elevated', summary: 'Adjust price, cost or weight of many products by an amount or a percentage',
    request: bulkAdjustRequest, handler: (ctx, input) => bulkAdjustProperty(ctx, input.ids, input.adjust),
  }),
];

const collectionRoutes: RouteDef[] = [
  route({
    method: 'POST', path: '/stores/v1/collections', access: 'elevated', summary: 'Create a collection',
    request: createCollectionRequest, handler: (ctx, input) => createCollection(ctx, input.collection),
  }),
  route({
    method: 'PATCH', path: '/stores/v1/collections/:collectionId', access: 'elevated', summary: 'Update a collection (partial)',
    request: updateCollectionRequest, handler: (ctx, input) => updateCollection(ctx, input.collectionId, input.collection),
  }),
  idWrite('/stores/v1/collections/:id', 'Delete a collection', deleteCollection, 'DELETE'),
  route({
    method: 'POST', path: '/stores/v1/collections/:id/productIds', access: 'elevated', summary: 'Add products to a collection',
    request: collectionProductsRequest, handler: (ctx, input) => addProductsToCollection(ctx, input.id, input.productIds ?? []),
  }),
  route({
    method: 'POST', path: '/stores/v1/collections/:id/productIds/delete', access: 'elevated', summary: 'Remove products from a collection',
    request: collectionProductsRequest.extend({ productIds: z.array(z.string().min(1).max(100)).max(1000) }),
    handler: (ctx, input) => removeProductsFromCollection(ctx, input.id, input.productIds),
  }),
  ...['/stores-reader/v1/collections', '/v2/collections'].flatMap((base): RouteDef[] => [
    route({
      method: 'GET', path: `${base}/query`, postTwin: true, access: 'visitor', summary: 'Query collections (offset paging)',
      request: queryCollectionsRequest, handler: (ctx, input) => queryCollections(ctx, input.query ?? {}),
    }),
    route({
      method: 'GET', path: `${base}/slug/:slug`, access: 'visitor', summary: 'Get a collection by slug',
      request: slugRequest, handler: (ctx, input) => getCollectionBySlug(ctx, input.slug),
    }),
    route({
      method: 'GET', path: `${base}/:id`, access: 'visitor', summary: 'Get a collection',
      request: idRequest, handler: (ctx, input) => getCollection(ctx, input.id),
    }),
  ]),
];

const inventoryRoutes: RouteDef[] = [
  route({
    method: 'POST', path: '/stores-reader/v2/inventoryItems/query', access: 'visitor', summary: 'Query inventory items (V1, one per product)',
    request: queryInventoryRequest, handler: (ctx, input) => queryInventory(ctx, input.query ?? {}),
  }),
  route({
    method: 'POST', path: '/stores-reader/v2/inventoryItems/:inventoryId/getVariants', access: 'visitor', summary: 'Stock of the variants of one inventory item',
    request: inventoryVariantsRequest, handler: (ctx, input) => getInventoryVariants(ctx, input),
  }),
  route({
    method: 'PATCH', path: '/stores/v2/inventoryItems/product/:inventoryItemProductId', access: 'elevated', summary: 'Set tracking, quantities, in-stock flags and preorder of a product',
    request: updateInventoryRequest, handler: (ctx, input) => updateInventoryVariants(ctx, input.inventoryItemProductId, input.inventoryItem),
  }),
  route({
    method: 'POST', path: '/stores/v2/inventoryItems/decrement', access: 'elevated', summary: 'Take stock (all lines or none)',
    request: decrementInventoryRequest, handler: (ctx, input) => decrementInventory(ctx, input.decrementData),
  }),
  route({
    method: 'POST', path: '/stores/v2/inventoryItems/increment', access: 'elevated', summary: 'Give stock back',
    request: incrementInventoryRequest, handler: (ctx, input) => incrementInventory(ctx, input.incrementData),
  }),
];

export const catalogRoutes: RouteDef[] = [
  ...productReads,
  ...productWrites,
  ...collectionRoutes,
  ...inventoryRoutes,
  ...v3Routes,
  publicRoute({
    method: 'GET',
    path: '/media/:mediaId/:fileName',
    raw: true,
    summary: 'Bytes of an uploaded or generated media file; ?w= one of its thumbnails (media-files.ts)',
    request: z.object({ mediaId: z.string().regex(/^[a-f0-9]{32}$/), fileName: z.string().max(300), w: z.number().int().optional() }),
    handler: (ctx, input) => serveMedia(ctx, input),
  }),
];
