import { useEffect } from 'react';
import { usePlaceOrder } from '@vitrine/react';
import type { checkout as checkoutModule } from '@vitrine/sdk/ecom';

/** The confirmation page of an order, carrying the checkout that placed it (what a visitor may read). */
export function confirmationPath(orderId: string, checkoutId: string): string {
  return `/order-confirmation/${encodeURIComponent(orderId)}?checkout=${encodeURIComponent(checkoutId)}`;
}

/**
 * The order a completed checkout placed. A checkout does not name its order, and a visitor may not
 * read orders (GET order answers 404 to visitors), but createOrder on a checkout that has its order
 * answers that order and changes nothing (the server's checkout docs: the same order on every call).
 * It is asked only of a completed checkout, so an open one is never turned into an order here.
 * `undefined` until known; `null` when the checkout has no order (completed elsewhere).
 */
export function useCheckoutOrderId(checkout: checkoutModule.Checkout | undefined): string | null | undefined {
  const ask = usePlaceOrder();
  const { mutate } = ask;
  const completedId = checkout?.completed ? checkout._id : undefined;
  useEffect(() => {
    if (completedId) mutate(completedId);
  }, [completedId, mutate]);
  if (ask.isError) return null;
  return ask.data?.orderId;
}
