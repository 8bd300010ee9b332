import { useState } from 'react';
import { cartCode } from './deferred-cart';
import { AddToCartView, readyToAdd, type AddToCartProps } from './AddToCartView';

/**
 * The add-to-cart button. Its cart code loads after hydration (deferred-cart.ts): until then the
 * same button is shown, and a click on it waits for the code and then adds.
 */
export function AddToCart(props: AddToCartProps) {
  const code = cartCode.use();
  const [queued, setQueued] = useState(false);
  if (code) return <code.AddToCartLive {...props} submitNow={queued} />;
  return <AddToCartView ready={readyToAdd(props)} pending={queued} onAdd={() => { setQueued(true); void cartCode.preload(); }} />;
}
