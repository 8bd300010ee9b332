import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { publicRoute } from './route.js';
import { sortBySpecificity } from './route-order.js';

const at = (path: string) => publicRoute({ method: 'GET', path, summary: path, request: z.object({}), handler: async () => ({}) });

describe('route order', () => {
  it('registers literal segments before parameters wherever two paths can match one URL', () => {
    const paths = [
      '/wix-data/v2/items/:dataItemId', '/stores/v1/products/:id', '/wix-data/v2/collections/:id', '/wix-data/v2/items/query',
      '/stores/v1/products/:id/variants', '/wix-data/v2/items/count', '/stores/v1/products/query', '/a/:x/y', '/a/z/:w',
    ];
    const sorted = sortBySpecificity(paths.map(at)).map((r) => r.path);
    const before = (a: string, b: string) => expect(sorted.indexOf(a)).toBeLessThan(sorted.indexOf(b));
    before('/wix-data/v2/items/query', '/wix-data/v2/items/:dataItemId');
    before('/wix-data/v2/items/count', '/wix-data/v2/items/:dataItemId');
    before('/stores/v1/products/query', '/stores/v1/products/:id');
    before('/a/z/:w', '/a/:x/y');
  });

  it('keeps declaration order among equally specific routes', () => {
    const sorted = sortBySpecificity(['/b/c', '/a/c', '/c/c'].map(at)).map((r) => r.path);
    expect(sorted).toEqual(['/b/c', '/a/c', '/c/c']);
  });
});
