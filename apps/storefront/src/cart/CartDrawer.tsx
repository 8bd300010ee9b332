import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from '../router';
import { useVisitorCart } from './visitor-cart';
import { useHydrated } from '../hydrated';
import { CartLines } from './lines';

interface CartUi { open: boolean; setOpen(open: boolean): void }
const CartUiContext = createContext<CartUi>({ open: false, setOpen: () => {} });
export const useCartUi = () => useContext(CartUiContext);

/** Holds the drawer's state; the drawer itself renders here (outside the page's flow). */
export function CartUiProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <CartUiContext.Provider value={{ open, setOpen }}>
      {children}
      {open && <CartDrawer onClose={() => setOpen(false)} />}
    </CartUiContext.Provider>
  );
}

/** The header's cart entry with the number of items (known in the browser only). */
export function CartButton() {
  const hydrated = useHydrated();
  const { cart } = useVisitorCart();
  const count = cart.data?.lineItems.reduce((n, l) => n + l.quantity, 0) ?? 0;
  const { setOpen } = useCartUi();
  return (
    <Link
      to="/cart"
      onClick={(e) => { e.preventDefault(); setOpen(true); }}
      className="inline-flex min-w-[5.5rem] justify-center rounded-md bg-stone-900 px-3 py-1.5 font-medium text-white"
      data-testid="cart-link"
    >
      Cart<span className="ml-1" data-testid="cart-count">{hydrated && count > 0 ? `(${count})` : ''}</span>
    </Link>
  );
}

function CartDrawer({ onClose }: { onClose: () => void }) {
  const { cart, loading, empty } = useVisitorCart();
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    panel.current?.focus();
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') onClose(); };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  const lines = cart.data?.lineItems ?? [];
  return (
    <div className="fixed inset-0 z-40 flex justify-end bg-black/40" onClick={onClose}>
      <div ref={panel} role="dialog" aria-modal="true" aria-labelledby="cart-drawer-title" tabIndex={-1} onClick={(e) => e.stopPropagation()}
        className="flex h-full w-full max-w-sm flex-col bg-white p-5 shadow-xl outline-none" data-testid="cart-drawer">
        <div className="flex items-center">
          <h2 id="cart-drawer-title" className="text-lg font-semibold">Your cart</h2>
          <button type="button" onClick={onClose} className="ml-auto rounded border border-stone-400 px-2 py-1 text-sm">Close</button>
        </div>
        <div className="mt-3 flex-1 overflow-y-auto">
          {loading && <p className="text-stone-700">Loading…</p>}
          {cart.isError && <p role="alert" className="text-rose-800">{cart.error.message}</p>}
          {empty && <p className="text-stone-700">Your cart is empty.</p>}
          {lines.length > 0 && <CartLines lines={lines} compact />}
        </div>
        {lines.length > 0 && (
          <div className="border-t border-stone-200 pt-4">
            <Link to="/cart" onClick={onClose} className="block rounded-md bg-stone-900 px-4 py-2 text-center text-sm font-medium text-white">View cart and check out</Link>
          </div>
        )}
      </div>
    </div>
  );
}
