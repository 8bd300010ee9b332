import { deferredModule } from '../deferred';

/**
 * The cart's code (the SDK's cart module, TanStack mutations, lines, drawer) is not part of a page's
 * first load: nothing of it shows before the shopper has a cart or clicks. It loads on idle after
 * hydration, or on the first click that needs it.
 */
export const cartCode = deferredModule(() => import('./cart-code'));
