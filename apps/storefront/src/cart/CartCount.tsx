import { useVisitorCart } from './visitor-cart';

/** `(n)`: the number of items in the shopper's cart, once known (nothing for an empty or no cart). */
export function CartCount() {
  const { cart } = useVisitorCart();
  const count = cart.data?.lineItems.reduce((n, l) => n + l.quantity, 0) ?? 0;
  return count > 0 ? `(${count})` : '';
}
