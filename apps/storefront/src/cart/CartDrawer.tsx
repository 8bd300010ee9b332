import { useEffect, useRef } from 'react';
import { Link } from '../router';
import { useVisitorCart } from './visitor-cart';
import { CartLines } from './lines';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The cart as a modal dialog over the page: focus moves into it and stays there (Tab and Shift+Tab
 * cycle through its controls), Escape closes it, and closing gives focus back to what opened it
 * (the header's cart button or the add-to-cart button).
 */
export function CartDrawer({ onClose }: { onClose: () => void }) {
  const { cart, loading, empty } = useVisitorCart();
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    panel.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
      if (e.key === 'Tab' && panel.current) keepFocusIn(panel.current, e);
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      if (opener?.isConnected) opener.focus();
    };
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

/** Tab from the last control goes to the first, Shift+Tab from the first (or the panel) to the last. */
function keepFocusIn(panel: HTMLElement, e: KeyboardEvent): void {
  const controls = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const first = controls[0];
  const last = controls[controls.length - 1];
  const active = document.activeElement;
  const inside = active instanceof Node && panel.contains(active);
  const wrapTo = !first || !last ? panel
    : e.shiftKey ? (active === first || active === panel || !inside ? last : undefined)
    : (active === last || !inside ? first : undefined);
  if (!wrapTo) return;
  e.preventDefault();
  wrapTo.focus();
}
