// What other domains may use of catalog: products named by a cart or checkout line's catalog reference,
// and the files of digital products for the orders that bought them.
export { digitalFileOfVariant, findProductV3ForCatalogReference } from './v3/service.js';
export { fileDownload } from './media-files.js';
export type { ProductV1 } from './model.js';
export type { ProductV3 } from './v3/model.js';
export { stableJson } from './model.js';
export { getProductsForLines, type LineProductV1 } from './line-products.js';
export { listingVersionSubquery, noteListingVersion, readListingVersion, seenListingVersion } from './store-listing.js';
