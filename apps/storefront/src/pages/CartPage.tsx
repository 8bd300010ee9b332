import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from '../router';
import { useCartCoupon, useCartTotals, useCreateCheckout } from '@vitrine/react';
import { useVisitorCart } from '../cart/visitor-cart';
import { Meta } from '../components/Meta';
import { CartLines } from '../cart/lines';
import { shippable } from '../cart/shippable';
import { useHydrated } from '../hydrated';

/** The cart page: lines, coupon, estimated totals, and the way to checkout. Browser-only data. */
export function CartPage() {
  const hydrated = useHydrated();
  const { cart, loading, empty } = useVisitorCart();
  const lines = cart.data?.lineItems ?? [];
  const totals = useCartTotals({}, hydrated && lines.length > 0);
  const coupon = useCartCoupon();
  const createCheckout = useCreateCheckout();
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const applied = cart.data?.appliedDiscounts.find((d) => d.coupon)?.coupon;
  const blocked = lines.some((l) => l.availability.status !== 'AVAILABLE');
  const summary = totals.data?.priceSummary;
  const couponError = totals.data?.calculationErrors.couponCalculationError?.applicationError.description;
  // Shipping and tax depend on the address, which a cart usually does not know yet: shown as zero
  // they would understate the total, so they are left to the checkout.
  const ships = lines.some(shippable);
  const addressKnown = Boolean(cart.data?.contactInfo?.address?.country);
  const shippingKnown = !ships || Boolean(totals.data?.shippingInfo.selectedCarrierServiceOption);
  const taxIncluded = cart.data?.taxIncludedInPrices ?? false;
  const pending = [...(shippingKnown ? [] : ['shipping']), ...(addressKnown || taxIncluded ? [] : ['tax'])];

  const apply = (e: FormEvent) => {
    e.preventDefault();
    if (code.trim()) coupon.mutate(code.trim(), { onSuccess: () => setCode('') });
  };
  const checkout = async () => {
    const id = await createCheckout.mutateAsync({ channelType: 'WEB' });
    navigate(`/checkout/${id}`);
  };

  return (
    <section>
      <Meta title="Cart" description="Your cart." path="/cart" noindex />
      <h1 className="text-2xl font-semibold">Your cart</h1>
      {loading && <p className="mt-4 min-h-[40vh] text-stone-700" aria-busy="true">Loading your cart…</p>}
      {cart.isError && <p role="alert" className="mt-4 rounded bg-rose-50 p-4 text-rose-900">{cart.error.message}</p>}
      {empty && (
        <div className="mt-4">
          <p className="text-stone-700" data-testid="cart-empty">Your cart is empty.</p>
          <Link to="/search" className="mt-4 inline-block rounded-md bg-stone-900 px-5 py-2 text-sm font-medium text-white">Browse products</Link>
        </div>
      )}
      {lines.length > 0 && (
        <div className="mt-6 grid gap-8 md:grid-cols-[1fr_20rem]">
          <CartLines lines={lines} />
          <aside aria-label="Order summary" className="h-fit rounded-lg border border-stone-200 bg-white p-5">
            <form onSubmit={apply} className="flex items-end gap-2">
              <label className="flex-1 text-sm">Coupon code
                <input value={code} onChange={(e) => setCode(e.target.value)} className="mt-1 w-full rounded-md border border-stone-400 px-3 py-2" autoComplete="off" />
              </label>
              <button type="submit" disabled={coupon.isPending} className="rounded-md border border-stone-900 px-3 py-2 text-sm">Apply</button>
            </form>
            {coupon.error && <p role="alert" className="mt-2 text-sm text-rose-800">{coupon.error.message}</p>}
            {couponError && <p role="alert" className="mt-2 text-sm text-rose-800">{couponError}</p>}
            {applied && (
              <p className="mt-2 text-sm" data-testid="applied-coupon">Coupon {applied.code} applied. <button type="button" className="underline" onClick={() => coupon.mutate(null)}>Remove</button></p>
            )}
            <dl className="mt-4 space-y-1 text-sm" data-testid="cart-totals">
              <Row label="Subtotal" value={summary?.subtotal.formattedAmount} />
              {summary && Number(summary.discount.amount) > 0 && <Row label="Discount" value={`-${summary.discount.formattedAmount}`} testId="total-discount" />}
              {ships && <Row label="Shipping" value={shippingKnown ? summary?.shipping.formattedAmount : LATER} testId="cart-shipping" />}
              <Row label="Tax" value={addressKnown ? summary?.tax.formattedAmount : taxIncluded ? 'Included in prices' : LATER} testId="cart-tax" />
              <div className="flex justify-between border-t border-stone-200 pt-2 font-semibold">
                <dt data-testid="cart-total-label">{pending.length > 0 ? `Total before ${pending.join(' and ')}` : 'Total'}</dt>
                <dd data-testid="cart-total">{summary?.total.formattedAmount ?? '…'}</dd>
              </div>
            </dl>
            {blocked && <p role="alert" className="mt-3 text-sm text-rose-800">Fix the marked lines to check out.</p>}
            <button type="button" onClick={() => void checkout().catch(() => undefined)} disabled={blocked || createCheckout.isPending}
              className="mt-4 w-full rounded-md bg-stone-900 px-4 py-2 text-sm font-medium text-white disabled:opacity-60">Check out</button>
            {createCheckout.error && <p role="alert" className="mt-2 text-sm text-rose-800">{createCheckout.error.message}</p>}
          </aside>
        </div>
      )}
    </section>
  );
}

const LATER = 'Calculated at checkout';

function Row({ label, value, testId }: { label: string; value: string | undefined; testId?: string }) {
  return <div className="flex justify-between"><dt className="text-stone-700">{label}</dt><dd data-testid={testId}>{value ?? '…'}</dd></div>;
}
