import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from '../router';
import { useCheckout, usePlaceOrderAndCharge, useUpdateCheckout } from '@vitrine/react';
import type { checkout as checkoutModule } from '@vitrine/sdk/ecom';
import { Meta } from '../components/Meta';
import { useHydrated } from '../hydrated';

type Checkout = checkoutModule.Checkout;
const input = 'mt-1 w-full rounded-md border border-stone-400 bg-white px-3 py-2 text-sm';
const button = 'rounded-md bg-stone-900 px-4 py-2 text-sm font-medium text-white disabled:opacity-60';

/** Checkout: contact e-mail, shipping address, shipping option, billing, test card, place order. Browser-only. */
export function CheckoutPage() {
  const { id = '' } = useParams();
  const hydrated = useHydrated();
  const checkout = useCheckout(hydrated ? id : undefined);
  return (
    <section className="max-w-3xl">
      <Meta title="Checkout" description="Check out." path="/checkout" noindex />
      <h1 className="text-2xl font-semibold">Checkout</h1>
      {(!hydrated || checkout.isPending) && <p className="mt-4 min-h-[40vh] text-stone-700" aria-busy="true">Loading your checkout…</p>}
      {checkout.isError && <p role="alert" className="mt-4 rounded bg-rose-50 p-4 text-rose-900">{checkout.error.message} <Link to="/cart" className="underline">Back to the cart</Link></p>}
      {checkout.data && <CheckoutForm checkout={checkout.data} />}
    </section>
  );
}

function CheckoutForm({ checkout }: { checkout: Checkout }) {
  const update = useUpdateCheckout();
  const place = usePlaceOrderAndCharge();
  const navigate = useNavigate();
  const [sameBilling, setSameBilling] = useState(true);
  const [declined, setDeclined] = useState<string>();
  const destination = checkout.shippingInfo.shippingDestination;
  const options = checkout.shippingInfo.carrierServiceOptions.flatMap((c) => c.shippingOptions.map((o) => ({ ...o, carrierId: c.carrierId })));
  const selected = checkout.shippingInfo.selectedCarrierServiceOption?.code;
  const problems = checkout.violations.filter((v) => v.severity === 'ERROR');
  const summary = checkout.priceSummary;

  const saveDetails = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim() || null;
    const address = (prefix: string) => ({
      address: { addressLine: text(`${prefix}addressLine`), city: text(`${prefix}city`), postalCode: text(`${prefix}postalCode`), country: text(`${prefix}country`)?.toUpperCase() ?? null },
      contactDetails: { firstName: text(`${prefix}firstName`), lastName: text(`${prefix}lastName`), phone: text(`${prefix}phone`) },
    });
    const shipping = address('');
    update.mutate({
      _id: checkout._id,
      checkout: { buyerInfo: { email: text('email') }, shippingInfo: { shippingDestination: shipping }, billingInfo: sameBilling ? shipping : address('billing.') },
    });
  };
  const placeOrder = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setDeclined(undefined);
    const form = new FormData(e.currentTarget);
    const [month, year] = String(form.get('expiry') ?? '').split('/').map((p) => Number(p.trim()));
    // The test provider's token is the card itself (the server's payments docs).
    const paymentToken = JSON.stringify({
      number: String(form.get('cardNumber') ?? '').replace(/\s+/g, ''),
      expMonth: month ?? 0,
      expYear: year !== undefined && year < 100 ? 2000 + year : year ?? 0,
      cvc: String(form.get('cvc') ?? '').trim(),
    });
    const { orderId, outcome } = await place.mutateAsync({ checkoutId: checkout._id, paymentToken });
    if (outcome && (outcome.status === 'DECLINED' || outcome.status === 'CANCELED')) {
      setDeclined(outcome.declineCode === 'INSUFFICIENT_FUNDS' ? 'The card has insufficient funds.' : 'The card was declined.');
      return;
    }
    navigate(`/order-confirmation/${orderId}`);
  };

  return (
    <div className="mt-6 grid gap-8 md:grid-cols-[1fr_18rem]">
      <div>
        <form onSubmit={saveDetails} className="space-y-6" aria-label="Contact and address">
          <fieldset className="rounded-lg border border-stone-200 bg-white p-5">
            <legend className="px-1 text-lg font-semibold">Contact</legend>
            <label className="block text-sm">E-mail<input name="email" type="email" required defaultValue={checkout.buyerInfo.email ?? ''} className={input} autoComplete="email" /></label>
          </fieldset>
          <AddressFields legend="Shipping address" prefix="" value={destination} />
          <label className="flex items-center gap-2 text-sm"><input type="checkbox" checked={sameBilling} onChange={(e) => setSameBilling(e.target.checked)} className="h-4 w-4 accent-stone-900" /> Billing address is the same as shipping</label>
          {!sameBilling && <AddressFields legend="Billing address" prefix="billing." value={checkout.billingInfo} />}
          <button type="submit" disabled={update.isPending} className={button}>{update.isPending ? 'Saving…' : 'Save and see shipping options'}</button>
          {update.error && <p role="alert" className="text-sm text-rose-800">{update.error.message}</p>}
        </form>
        {destination && (
          <fieldset className="mt-6 rounded-lg border border-stone-200 bg-white p-5" data-testid="shipping-options">
            <legend className="px-1 text-lg font-semibold">Delivery</legend>
            {options.length === 0 && <p className="text-sm text-stone-700">No delivery option reaches this address.</p>}
            {options.map((o) => (
              <label key={o.code} className="flex items-start gap-3 py-2 text-sm">
                <input type="radio" name="shipping" checked={selected === o.code} disabled={update.isPending} className="mt-1 h-4 w-4 accent-stone-900"
                  onChange={() => update.mutate({ _id: checkout._id, checkout: { shippingInfo: { selectedCarrierServiceOption: { code: o.code, carrierId: o.carrierId } } } })} />
                <span className="flex-1">
                  <span className="font-medium">{o.title}</span>
                  <span className="block text-stone-700">{o.logistics.pickupDetails ? `Pickup: ${[o.logistics.pickupDetails.address.addressLine, o.logistics.pickupDetails.address.city].filter(Boolean).join(', ')}` : o.logistics.deliveryTime ?? ''}</span>
                </span>
                <span>{o.cost.price.formattedAmount}</span>
              </label>
            ))}
          </fieldset>
        )}
      </div>
      <aside aria-label="Order summary" className="h-fit rounded-lg border border-stone-200 bg-white p-5 text-sm">
        <ul className="space-y-1">
          {checkout.lineItems.map((l) => <li key={l._id} className="flex justify-between gap-2"><span>{l.quantity} × {l.productName.original}</span><span>{l.lineItemPrice.formattedAmount}</span></li>)}
        </ul>
        <dl className="mt-3 space-y-1 border-t border-stone-200 pt-3">
          <div className="flex justify-between"><dt>Subtotal</dt><dd>{summary.subtotal.formattedAmount}</dd></div>
          {Number(summary.discount.amount) > 0 && <div className="flex justify-between"><dt>Discount</dt><dd>-{summary.discount.formattedAmount}</dd></div>}
          <div className="flex justify-between"><dt>Shipping</dt><dd>{summary.shipping.formattedAmount}</dd></div>
          <div className="flex justify-between"><dt>Tax</dt><dd>{summary.tax.formattedAmount}</dd></div>
          <div className="flex justify-between font-semibold"><dt>Total</dt><dd data-testid="checkout-total">{summary.total.formattedAmount}</dd></div>
        </dl>
        {problems.map((p) => <p key={p.description} role="alert" className="mt-3 text-rose-800" data-testid="checkout-problem">{p.description} <Link to="/cart" className="underline">Fix it in the cart</Link></p>)}
        <form onSubmit={(e) => void placeOrder(e).catch(() => undefined)} className="mt-4 space-y-3 border-t border-stone-200 pt-4" aria-labelledby="payment-title">
          <h2 id="payment-title" className="font-semibold">Payment</h2>
          <p className="text-xs text-stone-700">Test cards: 4242 4242 4242 4242 is charged, 4000 0000 0000 0002 is declined.</p>
          <label className="block">Card number<input name="cardNumber" required inputMode="numeric" autoComplete="cc-number" pattern="[0-9 ]{12,23}" className={input} /></label>
          <div className="flex gap-2">
            <label className="block flex-1">Expiry (MM/YY)<input name="expiry" required placeholder="12/30" autoComplete="cc-exp" pattern="[0-9]{1,2} ?/ ?[0-9]{2,4}" className={input} /></label>
            <label className="block w-20">CVC<input name="cvc" required inputMode="numeric" autoComplete="cc-csc" pattern="[0-9]{3,4}" className={input} /></label>
          </div>
          {declined && <p role="alert" className="text-rose-800" data-testid="payment-declined">{declined} Your order is saved: try another card.</p>}
          <button type="submit" disabled={place.isPending || !destination || !checkout.buyerInfo.email || problems.length > 0}
            className={`w-full ${button}`}>{place.isPending ? 'Placing order…' : 'Place order and pay'}</button>
        </form>
        {place.error && <p role="alert" className="mt-2 text-rose-800" data-testid="place-order-error">{place.error.message} <Link to="/cart" className="underline">Back to the cart</Link></p>}
      </aside>
    </div>
  );
}

function AddressFields({ legend, prefix, value }: { legend: string; prefix: string; value: checkoutModule.Checkout['billingInfo'] }) {
  const a = value?.address;
  const c = value?.contactDetails;
  const id = (name: string) => `${prefix}${name}`;
  return (
    <fieldset className="grid gap-3 rounded-lg border border-stone-200 bg-white p-5 sm:grid-cols-2">
      <legend className="px-1 text-lg font-semibold">{legend}</legend>
      <label className="text-sm">First name<input name={id('firstName')} required defaultValue={c?.firstName ?? ''} className={input} autoComplete="given-name" /></label>
      <label className="text-sm">Last name<input name={id('lastName')} required defaultValue={c?.lastName ?? ''} className={input} autoComplete="family-name" /></label>
      <label className="text-sm sm:col-span-2">Street and number<input name={id('addressLine')} required defaultValue={a?.addressLine ?? ''} className={input} autoComplete="address-line1" /></label>
      <label className="text-sm">City<input name={id('city')} required defaultValue={a?.city ?? ''} className={input} autoComplete="address-level2" /></label>
      <label className="text-sm">Postal code<input name={id('postalCode')} defaultValue={a?.postalCode ?? ''} className={input} autoComplete="postal-code" /></label>
      <label className="text-sm">Country (2 letters)<input name={id('country')} required pattern="[A-Za-z]{2}" maxLength={2} defaultValue={a?.country ?? ''} className={input} autoComplete="country" /></label>
      <label className="text-sm">Phone<input name={id('phone')} type="tel" defaultValue={c?.phone ?? ''} className={input} autoComplete="tel" /></label>
    </fieldset>
  );
}
