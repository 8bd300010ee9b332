// @vitest-environment jsdom
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { createClient, OAuthStrategy } from '@vitrine/sdk';
import { startTestServer, type TestServer } from '../../server/test/harness.js';
import { useAddToCart, useAuth, useCurrentCart, useProducts, VitrineProvider } from '../src/index.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterEach(() => cleanup());
afterAll(() => t?.close());

const settle = (check: () => void) => waitFor(check, { timeout: 15_000 });
const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
const CART_PATH = '/ecom/v1/carts/current';

/**
 * A network where the first cart read overtakes the add: the read is answered by the server before
 * the add is sent (so it finds no cart), and its answer reaches the page only after the add's.
 * This is the order a shopper's first add-to-cart can take on a slow connection.
 */
function overtakingFetch(): typeof fetch {
  let readAnswered: () => void = () => {};
  const readAnsweredP = new Promise<void>((resolve) => { readAnswered = resolve; });
  let addAnswered: () => void = () => {};
  const addAnsweredP = new Promise<void>((resolve) => { addAnswered = resolve; });
  return async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    if (url.pathname === CART_PATH && method === 'GET') {
      const res = await fetch(input, init);
      readAnswered();
      await addAnsweredP;
      await new Promise((r) => setTimeout(r, 50));
      return res;
    }
    if (url.pathname === `${CART_PATH}/add-to-cart`) {
      await Promise.race([readAnsweredP, new Promise((r) => setTimeout(r, 3000))]);
      const res = await fetch(input, init);
      addAnswered();
      return res;
    }
    return fetch(input, init);
  };
}

function Shop({ productId }: { productId: string }) {
  const { tokens } = useAuth();
  // As the storefront does: no cart read before the visitor has tokens (a first visit has no cart).
  const cart = useCurrentCart(Boolean(tokens?.refreshToken.value));
  const add = useAddToCart();
  const lines = cart.data?.lineItems.length ?? 0;
  return (
    <>
      <button onClick={() => add.mutate({ lineItems: [{ quantity: 1, catalogReference: { appId: STORES_APP_ID, catalogItemId: productId } }] })}>add</button>
      <p data-testid="state">{add.isSuccess ? `added, ${lines} line(s)` : 'idle'}</p>
    </>
  );
}

function ProductId({ onId }: { onId: (id: string) => void }) {
  const { data } = useProducts({ build: (q) => q.eq('slug', 'ceramic-mug') });
  if (data?.items[0]) onId(data.items[0]._id);
  return null;
}

describe('cart hooks', () => {
  it('a cart read that answers after the first add does not hide the added line', async () => {
    let productId = '';
    const lookup = render(<VitrineProvider client={createClient({ auth: OAuthStrategy({ clientId: t.clientId }), host: t.url })} queryClient={new QueryClient()}><ProductId onId={(id) => { productId = id; }} /></VitrineProvider>);
    await settle(() => expect(productId).not.toBe(''));
    lookup.unmount();

    const client = createClient({ auth: OAuthStrategy({ clientId: t.clientId }), host: t.url, fetch: overtakingFetch() });
    render(<VitrineProvider client={client} queryClient={new QueryClient({ defaultOptions: { queries: { retry: false } } })}><Shop productId={productId} /></VitrineProvider>);
    fireEvent.click(screen.getByRole('button', { name: 'add' }));
    await settle(() => expect(screen.getByTestId('state').textContent).toBe('added, 1 line(s)'));
    // After the late read has come back, the line is still there.
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.getByTestId('state').textContent).toBe('added, 1 line(s)');
  });
});
