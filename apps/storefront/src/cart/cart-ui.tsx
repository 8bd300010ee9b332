import { useCallback, useState, type ReactNode } from 'react';
import { Link } from '../router';
import { useHydrated } from '../hydrated';
import { cartCode } from './deferred-cart';
import { CartUiContext, useCartUi } from './cart-ui-context';

/** Holds the drawer's state; the drawer itself renders here (outside the page's flow). */
export function CartUiProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const code = cartCode.use();
  // One function for the drawer's life: its effect (focus, keys) runs once per opening.
  const close = useCallback(() => setOpen(false), []);
  return (
    <CartUiContext.Provider value={{ open, setOpen }}>
      {children}
      {open && code && <code.CartDrawer onClose={close} />}
    </CartUiContext.Provider>
  );
}

/** The header's cart entry with the number of items (known in the browser only). */
export function CartButton() {
  const hydrated = useHydrated();
  const code = cartCode.use();
  const { setOpen } = useCartUi();
  return (
    <Link
      to="/cart"
      onClick={(e) => {
        e.preventDefault();
        // The drawer's code is usually here already (loaded on idle); a very early click waits for it.
        void cartCode.preload().then(() => setOpen(true));
      }}
      className="inline-flex min-w-[5.5rem] justify-center rounded-md bg-stone-900 px-3 py-1.5 font-medium text-white"
      data-testid="cart-link"
    >
      Cart<span className="ml-1" data-testid="cart-count">{hydrated && code ? <code.CartCount /> : ''}</span>
    </Link>
  );
}
