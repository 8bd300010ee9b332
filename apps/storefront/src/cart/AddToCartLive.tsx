import { useEffect, useRef } from 'react';
import { useAddToCart } from '@vitrine/react';
import { AddToCartView, readyToAdd, type AddToCartProps } from './AddToCartView';
import { useCartUi } from './cart-ui-context';

/** The catalog app id of Vitrine's (and the platform's) stores products in cart lines. */
export const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';

/** Adds the chosen variant to the shopper's cart and opens the cart drawer. */
export function AddToCartLive({ submitNow, ...props }: AddToCartProps & { submitNow: boolean }) {
  const { product, variant, quantity } = props;
  const add = useAddToCart();
  const { setOpen } = useCartUi();
  const ready = readyToAdd(props);
  const submit = () => {
    if (!ready) return;
    const options = product.productOptions.length > 0 && variant ? { variantId: variant._id } : undefined;
    add.mutate(
      { lineItems: [{ quantity, catalogReference: { appId: STORES_APP_ID, catalogItemId: product._id, ...(options ? { options } : {}) } }] },
      { onSuccess: () => setOpen(true) },
    );
  };
  // A click on the button before this code was here: add now, once.
  const queued = useRef(submitNow);
  useEffect(() => {
    if (!queued.current) return;
    queued.current = false;
    submit();
  });
  return <AddToCartView ready={ready} pending={add.isPending} error={add.error?.message} onAdd={submit} />;
}
