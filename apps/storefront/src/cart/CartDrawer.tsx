import { useEffect, useRef } from 'react';
import { Link } from '../router';
import { useVisitorCart } from './visitor-cart';
import { CartLines } from './lines';

/** The cart as a dialog over the page (focus moves into it, Escape closes). */
export function CartDrawer({ onClose }: { onClose: () => void }) {
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
