import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { ClientCore } from '@vitrine/sdk';
import { createRoutes } from './routes';

const appRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Loaders are not run here: the client only has to exist.
const client: ClientCore = { host: 'http://shop.test', auth: { elevated: false, getAuthHeaders: async () => ({ headers: {} }) }, request: () => Promise.reject(new Error('no calls')), fetchWithAuth: () => Promise.reject(new Error('no calls')) };

describe('route table', () => {
  const table = createRoutes({ client, queryClient: new QueryClient() });

  it('names for every lazy page the module it loads (the server preloads that chunk)', async () => {
    const lazy = table.routes.filter((r) => r.lazy);
    expect(lazy.map((r) => r.path)).toEqual(['', 'collections/:slug', 'search', 'product-page/:slug', 'cart', 'checkout/:id', 'order-confirmation/:orderId', 'account', 'account/orders/:id', 'callback']);
    for (const route of lazy) {
      expect(route.module, route.path).toMatch(/^src\/pages\/\w+Page\.tsx$/);
      const page = await route.lazy!();
      const loaded = (await import(path.join(appRoot, route.module!))) as Record<string, unknown>;
      expect(Object.values(loaded), route.path).toContain(page);
    }
  });

  it('ends with the 404 page for every other path', () => {
    expect(table.routes.at(-1)?.path).toBe('*');
    expect(table.routes.at(-1)?.element).toBeDefined();
  });
});
