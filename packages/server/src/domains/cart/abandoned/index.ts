/**
 * What other domains may use of abandoned checkouts (docs/cart-aftercare.md): the cart domain
 * reports each checkout's state and its completion, inside its own transaction.
 */
export { markCheckoutCompleted, trackCheckoutActivity } from './service.js';
export type { CheckoutDetails, CheckoutSnapshot } from './model.js';
