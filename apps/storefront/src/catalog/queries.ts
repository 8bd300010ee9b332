/**
 * Query options that route loaders and pages share. Their own module: the loaders run before a
 * page's chunk is loaded, so they must not import the pages.
 */

/** Products read per request of a scope (the catalog's page maximum). */
export const SCOPE_LIMIT = 100;
/** Most products a scope holds; facets, search and counts cover the whole result set up to here. */
export const SCOPE_MAX = 1000;

/** Query options of a scope (same on the server's loader and in the page's hook); see browse.ts. */
export const scopeOptions = (collectionId?: string) => ({ limit: SCOPE_LIMIT, upTo: SCOPE_MAX, collectionId });

/** How many products the home page features (the newest). */
export const FEATURED_COUNT = 8;
export const FEATURED = { limit: FEATURED_COUNT } as const;
