/**
 * CONFORMANCE: the platform's own public client (`@wix/sdk` + `@wix/stores`) against our server,
 * unchanged, with its two hosts routed to the test server by a fetch wrapper (docs/api.md, last
 * section). If this fails, our server (or the wire contract) diverged from the platform.
 */
import { describe, expect, it } from 'vitest';
import { createClient, OAuthStrategy } from '@wix/sdk';
import { products } from '@wix/stores';
import { usePublicClientServer } from '../../server/test/public-client.js';

const f = usePublicClientServer();

describe('public @wix/sdk client against our server', () => {
  it('gets anonymous tokens, lists, pages and gets products', async () => {
    const wix = createClient({ modules: { products }, auth: OAuthStrategy({ clientId: 'demo' }) });

    const first = await wix.products.queryProducts().limit(5).find();
    expect(first.items.map((p) => p.name)).toEqual(['Cold Brew Kit', 'Ceramic Mug', 'Gift Card', 'Tasting Gift Box', 'Knit Beanie']);
    expect(first.totalCount).toBe(26);
    expect(first.totalPages).toBe(6);
    expect(first.hasNext()).toBe(true);

    const tokens = wix.auth.getTokens();
    expect(tokens.refreshToken.role).toBe('visitor');
    expect(tokens.accessToken.value.split('.')).toHaveLength(3);
    expect(f.routing.requests[0]).toEqual({ method: 'POST', url: `${f.t.url}/oauth2/token`, body: JSON.stringify({ clientId: 'demo', grantType: 'anonymous' }) });

    const second = await first.next();
    expect(second.currentPage).toBe(1);
    expect(second.items.map((p) => p.name)).toEqual(['Canvas Apron', 'Roaster Hoodie', 'Barista T-Shirt', 'Digital Scale', 'Paper Filters (100)']);
    const back = await second.prev();
    expect(back.items.map((p) => p._id)).toEqual(first.items.map((p) => p._id));

    const filtered = await wix.products.queryProducts().gt('priceData.price', 40).descending('price').find();
    expect(filtered.items.map((p) => p.name)).toEqual(['Hand Grinder', 'Gooseneck Kettle', 'Roaster Hoodie', 'Gift Card', 'Tasting Gift Box', 'Digital Scale']);

    const id = filtered.items[0]!._id!;
    const { product } = await wix.products.getProduct(id);
    expect(product).toMatchObject({ _id: id, name: 'Hand Grinder', slug: 'hand-grinder', price: { price: 89, currency: 'USD' } });
    expect(product?._createdDate).toBeInstanceOf(Date);

    // Exactly one token request for the whole session.
    expect(f.routing.requests.filter((s) => s.url.endsWith('/oauth2/token'))).toHaveLength(1);
  });

  it('surfaces our 404 as the public client\'s application error', async () => {
    const wix = createClient({ modules: { products }, auth: OAuthStrategy({ clientId: 'demo' }) });
    const error: unknown = await wix.products.getProduct('00000000-0000-0000-0000-00000000abcd').then(() => undefined, (e: unknown) => e);
    expect((error as { details?: { applicationError?: { code?: string } } }).details?.applicationError?.code).toBe('PRODUCT_NOT_FOUND');
  });

  it('surfaces our 400 as the public client\'s validation error', async () => {
    const wix = createClient({ modules: { products }, auth: OAuthStrategy({ clientId: 'demo' }) });
    const error: unknown = await wix.products.queryProducts().limit(1001).find().then(() => undefined, (e: unknown) => e);
    const { details, message } = error as { message: string; details?: { validationError?: { fieldViolations?: { field: string; violatedRule: string }[] } } };
    // The public client renames `query` to the builder's (absent) argument name: `undefined.paging.limit`.
    expect(details?.validationError?.fieldViolations?.map((v) => [v.field, v.violatedRule])).toEqual([['undefined.paging.limit', 'MAX']]);
    expect(message).toContain('INVALID_ARGUMENT: \\"undefined.paging.limit\\" must be at most 100');
  });
});
