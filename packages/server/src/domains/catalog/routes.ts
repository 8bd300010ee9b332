import { z } from 'zod';
import { publicRoute, route, type RouteDef } from '../../http/route.js';
import { notFound } from '../../http/errors.js';
import { createProduct, getMediaFile, getProduct, queryProducts } from './service.js';
import { createProductRequest, getProductRequest, productResponse, queryProductsRequest, queryProductsResponse } from './schema.js';

export const catalogRoutes: RouteDef[] = [
  route({
    method: 'GET',
    path: '/stores-reader/v1/products/query-platformized',
    postTwin: true,
    access: 'visitor',
    summary: 'Query products (V1): filter, sort, offset paging',
    request: queryProductsRequest,
    response: queryProductsResponse,
    handler: (ctx, input) => queryProducts(ctx, input.query ?? {}),
  }),
  route({
    method: 'GET',
    path: '/stores-reader/v1/products/:id',
    access: 'visitor',
    summary: 'Get a product (V1); merchant data only for elevated callers',
    request: getProductRequest,
    response: productResponse,
    handler: (ctx, input) => getProduct(ctx, input.id, input.includeMerchantSpecificData),
  }),
  route({
    method: 'POST',
    path: '/stores/v1/products',
    access: 'elevated',
    summary: 'Create a product (V1)',
    request: createProductRequest,
    response: productResponse,
    handler: (ctx, input) => createProduct(ctx, input.product),
  }),
  publicRoute({
    method: 'GET',
    path: '/media/:mediaId/:fileName',
    raw: true,
    summary: 'Bytes of an uploaded or generated media file',
    request: z.object({ mediaId: z.string().regex(/^[a-f0-9]{32}$/), fileName: z.string().max(300) }),
    async handler(ctx, input) {
      const file = await getMediaFile(ctx, input.mediaId);
      if (!file) throw notFound('MEDIA_NOT_FOUND', 'No such media file');
      return new Response(new Uint8Array(file.bytes), {
        headers: {
          'content-type': file.content_type,
          'cache-control': 'public, max-age=31536000, immutable',
          // Uploaded SVG must not run script in our origin.
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
          'x-content-type-options': 'nosniff',
        },
      });
    },
  }),
];
