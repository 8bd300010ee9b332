import { Link } from 'react-router';

/** The header's cart entry. */
export function CartButton() {
  return <Link to="/cart" className="rounded-md bg-stone-900 px-3 py-1.5 font-medium text-white" data-testid="cart-link">Cart</Link>;
}
