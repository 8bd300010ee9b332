import type { RouteDef } from '../../../http/route.js';

/** Catalog V3 routes (products, inventory items, ribbons, brands, info sections). */
export const v3Routes: RouteDef[] = [];
