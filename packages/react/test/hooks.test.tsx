// @vitest-environment jsdom
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, renderHook, screen, waitFor } from '@testing-library/react';
import { useState, type ReactNode } from 'react';
import { QueryClient } from '@tanstack/react-query';
import { ApiKeyStrategy, createClient, OAuthStrategy, type ClientCore } from '@vitrine/sdk';
import { startTestServer, type TestServer } from '../../server/test/harness.js';
import { OUTSIDE_PROVIDER_MESSAGE, useAuth, useProduct, useProducts, useVitrineClient, VitrineProvider } from '../src/index.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterEach(() => cleanup());
afterAll(() => t?.close());

/** waitFor with room for a loaded machine (the suites of several engineers share two cores). */
const settle = (check: () => void) => waitFor(check, { timeout: 15_000 });

const visitorClient = () => createClient({ auth: OAuthStrategy({ clientId: t.clientId }), host: t.url });
const noRetry = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });
const wrapperFor = (client: ClientCore) => ({ children }: { children: ReactNode }) => (
  <VitrineProvider client={client} queryClient={noRetry()}>{children}</VitrineProvider>
);

function ProductList() {
  const { data, isPending, error } = useProducts({ limit: 3, sort: [{ fieldName: 'name', order: 'ASC' }], build: (q) => q.eq('brand', 'Leaf & Co') });
  if (isPending) return <p>loading</p>;
  if (error) return <p role="alert">{error.message}</p>;
  return (
    <>
      <ul>{data.items.map((p) => <li key={p._id}>{p.name}</li>)}</ul>
      <p>{`${data.totalCount} products, page ${data.currentPage! + 1} of ${data.totalPages}`}</p>
    </>
  );
}

describe('@vitrine/react', () => {
  it('useProducts renders a filtered, sorted page from the server', async () => {
    render(<VitrineProvider client={visitorClient()}><ProductList /></VitrineProvider>);
    expect(screen.getByText('loading')).toBeTruthy();
    await settle(() => expect(screen.getAllByRole('listitem')).toHaveLength(3));
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Darjeeling First Flush', 'Earl Grey Supreme', 'Jasmine Pearls']);
    expect(screen.getByText('6 products, page 1 of 2')).toBeTruthy();
  });

  it('useProduct gets one product with decoded fields; an unknown id is an error', async () => {
    const client = visitorClient();
    const list = renderHook(() => useProducts({ build: (q) => q.eq('slug', 'french-press') }), { wrapper: wrapperFor(client) });
    await settle(() => expect(list.result.current.isSuccess).toBe(true));
    const id = list.result.current.data!.items[0]!._id;
    const one = renderHook(() => useProduct(id), { wrapper: wrapperFor(client) });
    await settle(() => expect(one.result.current.isSuccess).toBe(true));
    expect(one.result.current.data).toMatchObject({ _id: id, name: 'French Press', price: { price: 35 } });
    expect(one.result.current.data!._createdDate).toBeInstanceOf(Date);

    const missing = renderHook(() => useProduct('00000000-0000-0000-0000-00000000abcd'), { wrapper: wrapperFor(client) });
    await settle(() => expect(missing.result.current.isError).toBe(true));
    expect(missing.result.current.error).toMatchObject({ status: 404, code: 'PRODUCT_NOT_FOUND' });

    const idle = renderHook(() => useProduct(undefined), { wrapper: wrapperFor(client) });
    expect(idle.result.current.fetchStatus).toBe('idle');
  });

  it('useAuth follows the OAuth tokens', async () => {
    const client = visitorClient();
    function Auth() {
      const { tokens, loggedIn, isOAuth } = useAuth();
      useProducts({ limit: 1 });
      return <p>{`${isOAuth} ${tokens?.refreshToken.role} ${loggedIn}`}</p>;
    }
    render(<VitrineProvider client={client}><Auth /></VitrineProvider>);
    expect(screen.getByText('true none false')).toBeTruthy();
    await settle(() => expect(screen.getByText('true visitor false')).toBeTruthy());
    const auth = client.auth as ReturnType<typeof OAuthStrategy>;
    act(() => auth.setTokens({ ...auth.getTokens(), refreshToken: { value: 'rt_x', role: 'member' } }));
    expect(screen.getByText('true member true')).toBeTruthy();
  });

  it('useAuth without OAuth reports no tokens', () => {
    const client = createClient({ auth: ApiKeyStrategy({ apiKey: t.apiKey, siteId: t.site.id }), host: t.url });
    const { result } = renderHook(() => useAuth(), { wrapper: wrapperFor(client) });
    expect(result.current).toMatchObject({ isOAuth: false, tokens: null, loggedIn: false });
  });

  it('useVitrineClient outside the provider throws a clear error', () => {
    expect(() => renderHook(() => useVitrineClient())).toThrow(OUTSIDE_PROVIDER_MESSAGE);
  });

  it('changing the query options refetches, keeping the previous page meanwhile', async () => {
    function Pager() {
      const [skip, setSkip] = useState(0);
      const { data } = useProducts({ limit: 2, skip, sort: [{ fieldName: 'name' }], keepPrevious: true });
      return <button onClick={() => setSkip(skip + 2)}>{data ? data.items.map((p) => p.name).join(',') : '...'}</button>;
    }
    render(<VitrineProvider client={visitorClient()}><Pager /></VitrineProvider>);
    await settle(() => expect(screen.getByRole('button').textContent).toBe('Barista T-Shirt,Canvas Apron'));
    fireEvent.click(screen.getByRole('button'));
    expect(screen.getByRole('button').textContent).toBe('Barista T-Shirt,Canvas Apron'); // previous page kept while loading
    await settle(() => expect(screen.getByRole('button').textContent).toBe('Ceramic Mug,Cold Brew Kit'));
  });
});
