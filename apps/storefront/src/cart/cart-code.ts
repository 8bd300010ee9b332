/** Everything of the cart that loads after hydration (see deferred-cart.ts). */
export { CartDrawer } from './CartDrawer';
export { CartCount } from './CartCount';
export { AddToCartLive } from './AddToCartLive';
