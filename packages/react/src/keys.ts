/**
 * The one query-key factory of the hooks. Every key starts with `'vitrine'` and its area, so
 * `queryClient.invalidateQueries({ queryKey: queryKeys.products.all })` refreshes every product
 * query (lists, pages, details) and `queryKeys.all` everything the hooks cached.
 */
const ROOT = ['vitrine'] as const;

function area<const A extends string>(name: A) {
  return [...ROOT, name] as const;
}

export const queryKeys = {
  all: ROOT,
  products: {
    all: area('products'),
    /** A page of `queryProducts()`; `query` is the builder's `{ filter, sort, paging }`. */
    list: (query: unknown) => [...area('products'), 'list', query] as const,
    /** Pages loaded one after another (`useInfiniteProducts`). */
    infinite: (query: unknown) => [...area('products'), 'infinite', query] as const,
    detail: (id: string, options: unknown = {}) => [...area('products'), 'detail', id, options] as const,
  },
  collections: {
    all: area('collections'),
    list: (query: unknown) => [...area('collections'), 'list', query] as const,
  },
  members: {
    all: area('members'),
    list: (params: unknown) => [...area('members'), 'list', params] as const,
    detail: (id: string, options: unknown = {}) => [...area('members'), 'detail', id, options] as const,
    current: (options: unknown = {}) => [...area('members'), 'current', options] as const,
  },
  reports: {
    all: area('reports'),
    list: (options: unknown) => [...area('reports'), 'list', options] as const,
  },
  dataCollections: {
    all: area('dataCollections'),
    list: (options: unknown) => [...area('dataCollections'), 'list', options] as const,
    detail: (id: string) => [...area('dataCollections'), 'detail', id] as const,
  },
  dataItems: {
    all: area('dataItems'),
    /** Every items query of one data collection. */
    collection: (collectionId: string) => [...area('dataItems'), collectionId] as const,
    list: (collectionId: string, params: unknown) => [...area('dataItems'), collectionId, 'list', params] as const,
  },
  webhooks: {
    all: area('webhooks'),
    list: () => [...area('webhooks'), 'list'] as const,
    detail: (id: string) => [...area('webhooks'), 'detail', id] as const,
  },
  deliveries: {
    all: area('deliveries'),
    /** Every log page of one subscription. */
    subscription: (subscriptionId: string) => [...area('deliveries'), subscriptionId] as const,
    list: (subscriptionId: string, options: unknown) => [...area('deliveries'), subscriptionId, 'list', options] as const,
    detail: (id: string) => [...area('deliveries'), 'detail', id] as const,
  },
  mails: {
    all: area('mails'),
    list: (options: unknown) => [...area('mails'), 'list', options] as const,
  },
};

/**
 * What each kind of write makes stale (the mutation hooks invalidate these after success; call
 * them yourself after a write done outside the hooks).
 */
export const invalidates = {
  /** A product, its stock or media changed: product lists and details, collection counts. */
  product: () => [queryKeys.products.all, queryKeys.collections.all],
  /** A collection or its product set changed: collections and product lists (filtered by collection). */
  collection: () => [queryKeys.collections.all, queryKeys.products.all],
  /** A member's status, activity or existence changed; reports show members. */
  member: () => [queryKeys.members.all, queryKeys.reports.all],
  report: () => [queryKeys.reports.all, queryKeys.members.all],
  dataItems: (collectionId: string) => [queryKeys.dataItems.collection(collectionId)],
  webhook: () => [queryKeys.webhooks.all, queryKeys.deliveries.all],
  delivery: (subscriptionId: string) => [queryKeys.deliveries.subscription(subscriptionId)],
};
