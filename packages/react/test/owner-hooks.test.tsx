// @vitest-environment jsdom
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { QueryClient } from '@tanstack/react-query';
import { ApiKeyStrategy, createClient, OAuthStrategy, type ClientCore } from '@vitrine/sdk';
import { startTestServer, type TestServer } from '../../server/test/harness.js';
import { memberTokenPair, ownerCreateMember } from '../../server/test/member-tokens.js';
import {
  queryKeys, useAddProductsToCollection, useCollections, useCreateCollection, useCreateProduct, useCreateWebhookSubscription, useCurrentMember,
  useDataCollection, useDataItems, useDeleteProduct, useInfiniteProducts, useInsertDataItem, useMember, useMemberAction, useMembers, useProduct,
  useProducts, useRemoveDataItem, useUpdateProduct, useWebhookSubscriptions, VitrineProvider,
} from '../src/index.js';

/** The owner hooks of @vitrine/react against a real server: reads, writes, and the invalidation after writes. */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  const res = await fetch(`${t.url}/wix-data/v2/collections`, {
    method: 'POST',
    headers: { authorization: t.apiKey, 'wix-site-id': t.site.id, 'content-type': 'application/json' },
    body: JSON.stringify({ collection: { id: 'notes', permissions: { read: 'ADMIN', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' }, fields: [{ key: 'text', type: 'TEXT' }] } }),
  });
  expect(res.status).toBe(200);
});
afterEach(() => cleanup());
afterAll(() => t?.close());

const settle = (check: () => void) => waitFor(check, { timeout: 15_000 });
const owner = () => createClient({ auth: ApiKeyStrategy({ apiKey: t.apiKey, siteId: t.site.id }), host: t.url });
function wrapperFor(client: ClientCore) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return ({ children }: { children: ReactNode }) => <VitrineProvider client={client} queryClient={queryClient}>{children}</VitrineProvider>;
}

describe('queryKeys', () => {
  it('nests every key under its area and the root, so one prefix invalidates an area', () => {
    expect(queryKeys.products.all).toEqual(['vitrine', 'products']);
    expect(queryKeys.products.list({ filter: {} })).toEqual(['vitrine', 'products', 'list', { filter: {} }]);
    expect(queryKeys.products.detail('p1')).toEqual(['vitrine', 'products', 'detail', 'p1', {}]);
    expect(queryKeys.dataItems.list('notes', { limit: 2 }).slice(0, 3)).toEqual(queryKeys.dataItems.collection('notes'));
    expect(queryKeys.deliveries.list('s1', {}).slice(0, 3)).toEqual(queryKeys.deliveries.subscription('s1'));
    for (const area of Object.values(queryKeys).filter((v) => !Array.isArray(v))) expect((area as { all: readonly string[] }).all[0]).toBe('vitrine');
  });
});

describe('catalog hooks', () => {
  it('a created, updated and deleted product shows in the mounted list right after each write', async () => {
    const { result } = renderHook(() => ({
      list: useProducts({ build: (q) => q.startsWith('name', 'Hook Test') }),
      create: useCreateProduct(), update: useUpdateProduct(), remove: useDeleteProduct(),
    }), { wrapper: wrapperFor(owner()) });
    await settle(() => expect(result.current.list.isSuccess).toBe(true));
    expect(result.current.list.data!.items).toEqual([]);

    let id = '';
    await act(async () => { id = (await result.current.create.mutateAsync({ name: 'Hook Test Mug', priceData: { price: 9 } }))._id; });
    await settle(() => expect(result.current.list.data!.items.map((p) => p.name)).toEqual(['Hook Test Mug']));
    await act(async () => { await result.current.update.mutateAsync({ _id: id, product: { name: 'Hook Test Cup' } }); });
    await settle(() => expect(result.current.list.data!.items.map((p) => p.name)).toEqual(['Hook Test Cup']));
    await act(async () => { await result.current.remove.mutateAsync(id); });
    await settle(() => expect(result.current.list.data!.items).toEqual([]));
  });

  it('adding products to a new collection refreshes the collection counts and the filtered product list', async () => {
    const { result } = renderHook(() => {
      const collections = useCollections({ limit: 50 });
      const picks = collections.data?.items.find((c) => c.name === 'Hook Picks');
      return {
        collections, picks,
        inPicks: useProducts({ build: (q) => q.hasSome('collectionIds', [picks?._id ?? 'none']), enabled: Boolean(picks) }),
        all: useProducts({ limit: 2, sort: [{ fieldName: 'name' }] }),
        create: useCreateCollection(), add: useAddProductsToCollection(),
      };
    }, { wrapper: wrapperFor(owner()) });
    await settle(() => expect(result.current.all.isSuccess && result.current.collections.isSuccess).toBe(true));
    await act(async () => { await result.current.create.mutateAsync({ name: 'Hook Picks' }); });
    await settle(() => expect(result.current.picks).toMatchObject({ name: 'Hook Picks', numberOfProducts: 0 }));
    await settle(() => expect(result.current.inPicks.isSuccess).toBe(true));
    const ids = result.current.all.data!.items.map((p) => p._id);
    await act(async () => { await result.current.add.mutateAsync({ _id: result.current.picks!._id, productIds: ids }); });
    await settle(() => expect(result.current.picks!.numberOfProducts).toBe(2));
    await settle(() => expect(result.current.inPicks.data!.items.map((p) => p._id).sort()).toEqual([...ids].sort()));
  });

  it('useInfiniteProducts loads the next page after the first; useProduct decodes one product', async () => {
    const { result } = renderHook(() => useInfiniteProducts({ limit: 4, sort: [{ fieldName: 'name' }], build: (q) => q.eq('brand', 'Leaf & Co') }), { wrapper: wrapperFor(owner()) });
    await settle(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data!.pages[0]!.items).toHaveLength(4);
    expect(result.current.hasNextPage).toBe(true);
    await act(async () => { await result.current.fetchNextPage(); });
    await settle(() => expect(result.current.data!.pages.map((p) => p.items.length)).toEqual([4, 2]));
    await settle(() => expect(result.current.hasNextPage).toBe(false));
    const id = result.current.data!.pages[1]!.items[0]!._id;
    const one = renderHook(() => useProduct(id, { includeMerchantSpecificData: true }), { wrapper: wrapperFor(owner()) });
    await settle(() => expect(one.result.current.isSuccess).toBe(true));
    expect(one.result.current.data!.lastUpdated).toBeInstanceOf(Date);
  });
});

describe('members hooks', () => {
  it('approving a pending member updates the member and the status-filtered list', async () => {
    const pending = await ownerCreateMember(t, { loginEmail: 'pending@hooks.test', status: 'PENDING' });
    const { result } = renderHook(() => ({
      pendingList: useMembers({ fieldsets: ['FULL'], build: (q) => q.eq('status', 'PENDING') }),
      member: useMember(pending.id, { fieldsets: ['FULL'] }),
      act: useMemberAction(),
    }), { wrapper: wrapperFor(owner()) });
    await settle(() => expect(result.current.member.isSuccess && result.current.pendingList.isSuccess).toBe(true));
    expect(result.current.pendingList.data!.items.map((m) => m.loginEmail)).toEqual(['pending@hooks.test']);
    expect(result.current.member.data).toMatchObject({ status: 'PENDING' });
    await act(async () => { await result.current.act.mutateAsync({ _id: pending.id, action: 'approve' }); });
    await settle(() => expect(result.current.member.data).toMatchObject({ status: 'APPROVED' }));
    await settle(() => expect(result.current.pendingList.data!.items).toEqual([]));
  });

  it('useCurrentMember reads the signed-in member and stays idle when disabled', async () => {
    const me = await ownerCreateMember(t, { loginEmail: 'me@hooks.test' });
    const pair = await memberTokenPair(t, me.id);
    const client = createClient({
      auth: OAuthStrategy({ clientId: t.clientId, tokens: { accessToken: { value: pair.accessToken, expiresAt: Math.floor(Date.now() / 1000) + 600 }, refreshToken: { value: pair.refreshToken, role: 'member' } } }),
      host: t.url,
    });
    const { result } = renderHook(() => useCurrentMember({ fieldsets: ['FULL'] }), { wrapper: wrapperFor(client) });
    await settle(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toMatchObject({ _id: me.id, loginEmail: 'me@hooks.test' });
    const idle = renderHook(() => useCurrentMember({ enabled: false }), { wrapper: wrapperFor(client) });
    expect(idle.result.current.fetchStatus).toBe('idle');
  });
});

describe('data and webhook hooks', () => {
  it('inserting and removing items refreshes that collection\'s pages', async () => {
    const { result } = renderHook(() => ({
      collection: useDataCollection('notes'),
      items: useDataItems('notes', { sort: [{ fieldName: '_createdDate', order: 'DESC' }], limit: 10, returnTotalCount: true }),
      insert: useInsertDataItem(), remove: useRemoveDataItem(),
    }), { wrapper: wrapperFor(owner()) });
    await settle(() => expect(result.current.items.isSuccess && result.current.collection.isSuccess).toBe(true));
    expect(result.current.collection.data!._id).toBe('notes');
    expect(result.current.items.data!.totalCount).toBe(0);
    let id = '';
    await act(async () => { id = (await result.current.insert.mutateAsync({ collectionId: 'notes', item: { text: 'hello' } }))._id; });
    await settle(() => expect(result.current.items.data!.totalCount).toBe(1));
    await settle(() => expect(result.current.items.data!.items[0]).toMatchObject({ _id: id, text: 'hello' }));
    await settle(() => expect(result.current.items.data!.items[0]!._createdDate).toBeInstanceOf(Date));
    await act(async () => { await result.current.remove.mutateAsync({ collectionId: 'notes', itemId: id }); });
    await settle(() => expect(result.current.items.data!.totalCount).toBe(0));
  });

  it('a created webhook subscription appears in the list; a bad one is a validation error', async () => {
    const { result } = renderHook(() => ({ list: useWebhookSubscriptions(), create: useCreateWebhookSubscription() }), { wrapper: wrapperFor(owner()) });
    await settle(() => expect(result.current.list.isSuccess).toBe(true));
    expect(result.current.list.data).toEqual([]);
    await act(async () => { await result.current.create.mutateAsync({ url: 'https://example.com/hooks', eventTypes: [{ entityFqdn: 'wix.members.v1.member', slug: '*' }] }); });
    await settle(() => expect(result.current.list.data!.map((s) => s.url)).toEqual(['https://example.com/hooks']));
    await act(async () => { await result.current.create.mutateAsync({ url: 'ftp://example.com', eventTypes: [{ entityFqdn: 'wix.members.v1.member', slug: '*' }] }).catch(() => undefined); });
    await settle(() => expect(result.current.create.error).toMatchObject({ code: 'INVALID_ARGUMENT', status: 400 }));
    expect(result.current.list.data).toHaveLength(1);
  });
});
