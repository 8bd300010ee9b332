/** `@vitrine/react`: the provider and hooks over `@vitrine/sdk` and TanStack Query. */
export { VitrineProvider, useVitrineClient, OUTSIDE_PROVIDER_MESSAGE } from './provider.js';
export type { VitrineProviderProps } from './provider.js';
export { useProducts, useProduct, productKeys } from './products.js';
export type { ProductsQueryOptions } from './products.js';
export { useAuth } from './auth.js';
export type { AuthState } from './auth.js';
