import { useAuth, useCurrentCart } from '@vitrine/react';
import { useTokensKnown } from '../browser';

/**
 * The shopper's current cart, asked for only in the browser and only once the visitor has tokens: a
 * first visit has no cart, and asking would cost a token request and a 404 (logged by the browser as
 * a console error). Adding to the cart creates the tokens, and then the cart is read.
 */
export function useVisitorCart() {
  const known = useTokensKnown();
  const { tokens } = useAuth();
  const session = known && Boolean(tokens?.refreshToken.value);
  const cart = useCurrentCart(session);
  return {
    cart,
    /** Still unknown (server render, hydration, tokens not read yet, or the read under way). */
    loading: !known || (session && cart.isPending),
    /** Known to hold no line (no visitor session yet, no cart, or an emptied one). */
    empty: known && (!session || (cart.isSuccess && (cart.data?.lineItems.length ?? 0) === 0)),
  };
}
