/**
 * The shopper's cart and checkout (`@vitrine/sdk/ecom` currentCart and checkout). Every write puts
 * the answered cart straight into the cache (no refetch) and makes totals and checkouts stale.
 */
import { useQuery, useQueryClient, useMutation, type UseMutationResult, type UseQueryResult } from '@tanstack/react-query';
import { bindModule, VitrineError } from '@vitrine/sdk';
import { checkout, currentCart } from '@vitrine/sdk/ecom';
import { useVitrineClient } from './provider.js';

type Cart = currentCart.Cart;
const ROOT = ['vitrine', 'cart'] as const;
export const cartKeys = {
  all: ROOT,
  current: [...ROOT, 'current'] as const,
  totals: (options: unknown) => [...ROOT, 'totals', options] as const,
  checkout: (id: string) => [...ROOT, 'checkout', id] as const,
};

/** The current cart, or null when the shopper has none yet (the server's 404 CART_NOT_FOUND). */
export function useCurrentCart(enabled = true): UseQueryResult<Cart | null> {
  const client = useVitrineClient();
  return useQuery({
    queryKey: cartKeys.current,
    queryFn: async () => {
      try {
        return await bindModule(currentCart, client).getCurrentCart();
      } catch (err) {
        if (err instanceof VitrineError && err.status === 404) return null;
        throw err;
      }
    },
    enabled,
  });
}

/** A cart write whose answer replaces the cached cart; totals are refetched. */
function useCartWrite<V>(run: (cart: typeof currentCart, variables: V) => Promise<Cart>): UseMutationResult<Cart, Error, V> {
  const client = useVitrineClient();
  const queryClient = useQueryClient();
  return useMutation<Cart, Error, V>({
    mutationFn: (variables) => run(bindModule(currentCart, client), variables),
    onSuccess: async (cart) => {
      // A cart read still under way was answered before this write (a shopper's first add starts
      // one as soon as the visitor has tokens): cancel it so its older answer cannot replace this one.
      await queryClient.cancelQueries({ queryKey: cartKeys.current });
      queryClient.setQueryData(cartKeys.current, cart);
      await queryClient.invalidateQueries({ queryKey: [...ROOT, 'totals'] });
    },
  });
}

/** `mutate({ lineItems: [{ catalogReference, quantity }] })` (`currentCart.addToCurrentCart`). */
export const useAddToCart = () => useCartWrite(async (c, options: currentCart.AddToCurrentCartOptions) => (await c.addToCurrentCart(options)).cart);
/** `mutate([{ _id, quantity }])`; quantity 0 removes the line. */
export const useUpdateCartQuantity = () => useCartWrite(async (c, lines: currentCart.LineItemQuantityUpdate[]) => (await c.updateCurrentCartLineItemQuantity(lines)).cart);
/** `mutate([lineItemId])`. */
export const useRemoveFromCart = () => useCartWrite(async (c, ids: string[]) => (await c.removeLineItemsFromCurrentCart(ids)).cart);
/** `mutate('WELCOME10')` applies a coupon; `mutate(null)` removes it. */
export const useCartCoupon = () => useCartWrite((c, code: string | null) => (code ? c.updateCurrentCart({ couponCode: code }) : c.removeCouponFromCurrentCart().then((r) => r.cart)));

/** Estimated totals (subtotal, discount, shipping, tax, total) of the current cart. */
export function useCartTotals(options: currentCart.EstimateCurrentCartTotalsOptions = {}, enabled = true): UseQueryResult<currentCart.EstimateTotalsResponse> {
  const client = useVitrineClient();
  return useQuery({
    queryKey: cartKeys.totals(options),
    queryFn: () => bindModule(currentCart, client).estimateCurrentCartTotals(options),
    enabled,
  });
}

/** `mutateAsync({ channelType: 'WEB' })` -> the new checkout's id. */
export function useCreateCheckout(): UseMutationResult<string, Error, currentCart.CreateCheckoutFromCurrentCartOptions> {
  const client = useVitrineClient();
  return useMutation({ mutationFn: async (options) => (await bindModule(currentCart, client).createCheckoutFromCurrentCart(options)).checkoutId });
}

export function useCheckout(id: string | undefined): UseQueryResult<checkout.Checkout> {
  const client = useVitrineClient();
  return useQuery({ queryKey: cartKeys.checkout(id ?? ''), queryFn: () => bindModule(checkout, client).getCheckout(id!), enabled: Boolean(id) });
}

/** `mutate({ _id, checkout })` (`checkout.updateCheckout`); the answer replaces the cached checkout. */
export function useUpdateCheckout(): UseMutationResult<checkout.Checkout, Error, { _id: string; checkout: checkout.UpdateCheckout }> {
  const client = useVitrineClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ _id, checkout: info }) => bindModule(checkout, client).updateCheckout(_id, info),
    onSuccess: (answer) => queryClient.setQueryData(cartKeys.checkout(answer._id), answer),
  });
}

/** `mutateAsync(checkoutId)` -> `{ orderId }` (`checkout.createOrder`); the cart is gone afterwards. */
export function usePlaceOrder(): UseMutationResult<Awaited<ReturnType<typeof checkout.createOrder>>, Error, string> {
  const client = useVitrineClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id) => bindModule(checkout, client).createOrder(id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ROOT });
    },
  });
}

/** What a charge answered (`paymentResponseToken` of createOrderAndCharge), read without casts. */
export interface ChargeOutcome { status: string; declineCode?: string }

/** Reads the charge outcome from the token text (undefined when absent or not a charge answer). */
export function chargeOutcome(token: string | null | undefined): ChargeOutcome | undefined {
  if (!token) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(token);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || !('status' in value) || typeof value.status !== 'string') return undefined;
  const declineCode = 'declineCode' in value && typeof value.declineCode === 'string' ? value.declineCode : undefined;
  return { status: value.status, ...(declineCode ? { declineCode } : {}) };
}

/**
 * `mutateAsync({ checkoutId, paymentToken })` -> `{ orderId, outcome }` (`checkout.createOrderAndCharge`).
 * The same checkout always gives the same order: after a decline, call again with another card.
 */
export function usePlaceOrderAndCharge(): UseMutationResult<{ orderId: string; outcome: ChargeOutcome | undefined }, Error, { checkoutId: string; paymentToken?: string }> {
  const client = useVitrineClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ checkoutId, paymentToken }) => {
      const answer = await bindModule(checkout, client).createOrderAndCharge(checkoutId, paymentToken ? { paymentToken } : {});
      return { orderId: answer.orderId, outcome: chargeOutcome(answer.paymentResponseToken) };
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ROOT });
    },
  });
}
