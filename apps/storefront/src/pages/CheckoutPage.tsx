import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from '../router';
import { useAuth, useCheckout, useCurrentMember, usePlaceOrderAndCharge, useUpdateCheckout } from '@vitrine/react';
import type { checkout as checkoutModule } from '@vitrine/sdk/ecom';
import type { members } from '@vitrine/sdk/members';
import { Meta } from '../components/Meta';
import { SummaryTotals } from '../components/OrderSummary';
import { useHydrated } from '../hydrated';
import { shippable } from '../cart/shippable';
import { confirmationPath, useCheckoutOrderId } from '../orders/checkout-order';
import { addressText } from '../orders/order-view';

type Checkout = checkoutModule.Checkout;
type AddressWithContact = Checkout['billingInfo'];
const input = 'mt-1 w-full rounded-md border border-stone-400 bg-white px-3 py-2 text-sm';
const button = 'rounded-md bg-stone-900 px-4 py-2 text-sm font-medium text-white disabled:opacity-60';

/**
 * Checkout: contact e-mail, shipping address, shipping option, billing, test card, place order.
 * Browser-only. A completed checkout (its order placed) can no longer change: it says so and links
 * to the confirmation. Placing an order completes the checkout even when the card is declined, so
 * once the shopper pays here the payment form stays, to try another card for the same order.
 */
export function CheckoutPage() {
  const { id = '' } = useParams();
  const hydrated = useHydrated();
  const checkout = useCheckout(hydrated ? id : undefined);
  const co = checkout.data;
  const [paying, setPaying] = useState(false);
  // A member's checkout starts from their login e-mail and first saved address (before anything is saved).
  const { loggedIn } = useAuth();
  const prefill = hydrated && loggedIn && co !== undefined && !co.completed && (!co.buyerInfo.email || !co.shippingInfo.shippingDestination);
  const member = useCurrentMember({ fieldsets: ['FULL'], enabled: prefill });
  const showForm = co && (!co.completed || paying) && !(prefill && member.isPending);
  return (
    <section className="max-w-3xl">
      <Meta title="Checkout" description="Check out." path="/checkout" noindex />
      <h1 className="text-2xl font-semibold">Checkout</h1>
      {(!hydrated || checkout.isPending) && <p className="mt-4 min-h-[40vh] text-stone-700" aria-busy="true">Loading your checkout…</p>}
      {checkout.isError && <p role="alert" className="mt-4 rounded bg-rose-50 p-4 text-rose-900">{checkout.error.message} <Link to="/cart" className="underline">Back to the cart</Link></p>}
      {co?.completed && !paying && <PlacedCheckout checkout={co} onPayAgain={() => setPaying(true)} />}
      {showForm && (
        <div className="mt-6 grid gap-8 md:grid-cols-[1fr_18rem]">
          <div>{co.completed ? <p className="text-stone-700">Your order is placed. Its address and delivery can no longer change.</p> : <Details checkout={co} member={prefill ? member.data : undefined} />}</div>
          <Payment checkout={co} onPay={() => setPaying(true)} />
        </div>
      )}
    </section>
  );
}

/** A completed checkout: the order is placed; the way to its confirmation, or to pay again after a declined card. */
function PlacedCheckout({ checkout, onPayAgain }: { checkout: Checkout; onPayAgain: () => void }) {
  const orderId = useCheckoutOrderId(checkout);
  return (
    <div className="mt-6 rounded-lg border border-stone-200 bg-white p-5" data-testid="checkout-placed">
      <h2 className="text-lg font-semibold">Your order is already placed</h2>
      <p className="mt-1 text-sm text-stone-700">This checkout can no longer change. If the card was declined, you can pay the same order with another card.</p>
      <div className="mt-4 flex flex-wrap gap-3 text-sm">
        {orderId && <Link to={confirmationPath(orderId, checkout._id)} className="rounded-md bg-stone-900 px-4 py-2 font-medium text-white">See your order</Link>}
        <button type="button" onClick={onPayAgain} className="rounded-md border border-stone-900 px-4 py-2 font-medium">Pay with another card</button>
      </div>
    </div>
  );
}

/** The member's saved details as the checkout's address with contact (first saved address). */
function memberAddress(member: members.Member | undefined): AddressWithContact {
  const contact = member?.contact;
  if (!contact) return undefined;
  const a = contact.addresses?.[0];
  const street = [a?.streetAddress?.name, a?.streetAddress?.number].filter(Boolean).join(' ');
  return {
    address: { addressLine: a?.addressLine ?? (street || null), city: a?.city ?? null, postalCode: a?.postalCode ?? null, country: a?.country ?? null },
    contactDetails: { firstName: contact.firstName ?? null, lastName: contact.lastName ?? null, phone: contact.phones?.[0] ?? null },
  };
}

/** Contact, addresses and delivery of an open checkout. Only shipped items need a shipping address. */
function Details({ checkout, member }: { checkout: Checkout; member: members.Member | undefined }) {
  const update = useUpdateCheckout();
  const [sameBilling, setSameBilling] = useState(true);
  const destination = checkout.shippingInfo.shippingDestination;
  const ships = checkout.lineItems.some(shippable);
  const options = checkout.shippingInfo.carrierServiceOptions.flatMap((c) => c.shippingOptions.map((o) => ({ ...o, carrierId: c.carrierId })));
  const selected = checkout.shippingInfo.selectedCarrierServiceOption?.code;

  const saveDetails = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim() || null;
    const address = (prefix: string) => ({
      address: { addressLine: text(`${prefix}addressLine`), city: text(`${prefix}city`), postalCode: text(`${prefix}postalCode`), country: text(`${prefix}country`)?.toUpperCase() ?? null },
      contactDetails: { firstName: text(`${prefix}firstName`), lastName: text(`${prefix}lastName`), phone: text(`${prefix}phone`) },
    });
    const buyerInfo = { email: text('email') };
    const shipping = ships ? address('') : undefined;
    update.mutate({
      _id: checkout._id,
      checkout: { buyerInfo, ...(shipping ? { shippingInfo: { shippingDestination: shipping } } : {}), billingInfo: shipping && sameBilling ? shipping : address('billing.') },
    });
  };

  return (
    <>
      <form onSubmit={saveDetails} className="space-y-6" aria-label="Contact and address">
        <fieldset className="rounded-lg border border-stone-200 bg-white p-5">
          <legend className="px-1 text-lg font-semibold">Contact</legend>
          <label className="block text-sm">E-mail<input name="email" type="email" required defaultValue={checkout.buyerInfo.email ?? member?.loginEmail ?? ''} className={input} autoComplete="email" /></label>
        </fieldset>
        {ships ? (
          <>
            <AddressFields legend="Shipping address" prefix="" value={destination ?? memberAddress(member)} id="shipping-address" />
            <label className="flex items-center gap-2 text-sm"><input type="checkbox" checked={sameBilling} onChange={(e) => setSameBilling(e.target.checked)} className="h-4 w-4 accent-stone-900" /> Billing address is the same as shipping</label>
            {!sameBilling && <AddressFields legend="Billing address" prefix="billing." value={checkout.billingInfo} />}
          </>
        ) : (
          <>
            <p className="text-sm text-stone-700" data-testid="nothing-shipped">Nothing in this order is shipped, so no shipping address is needed.</p>
            <AddressFields legend="Billing address" prefix="billing." value={checkout.billingInfo ?? memberAddress(member)} />
          </>
        )}
        <button type="submit" disabled={update.isPending} className={button}>{update.isPending ? 'Saving…' : ships ? 'Save and see shipping options' : 'Save details'}</button>
        {update.error && <p role="alert" className="text-sm text-rose-800">{update.error.message}</p>}
      </form>
      {ships && destination && (
        <fieldset className="mt-6 rounded-lg border border-stone-200 bg-white p-5" data-testid="shipping-options">
          <legend className="px-1 text-lg font-semibold">Delivery</legend>
          {options.length === 0 && <p className="text-sm text-stone-700">No delivery option reaches this address. Check the shipping address above, or use another one.</p>}
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
    </>
  );
}

/** Summary, problems and the card form. `onPay` runs when the shopper submits a card. */
function Payment({ checkout, onPay }: { checkout: Checkout; onPay: () => void }) {
  const place = usePlaceOrderAndCharge();
  const navigate = useNavigate();
  const [declined, setDeclined] = useState<string>();
  const ships = checkout.lineItems.some(shippable);
  const placed = checkout.completed;
  // A placed order (after a declined card) is paid as it is: its checkout's details no longer count.
  const problems = placed ? [] : checkout.violations.filter((v) => v.severity === 'ERROR');
  const detailsSaved = Boolean(checkout.buyerInfo.email) && Boolean(ships ? checkout.shippingInfo.shippingDestination : checkout.billingInfo?.address?.country);
  const shipTo = ships ? addressText(checkout.shippingInfo.shippingDestination) : undefined;

  const placeOrder = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setDeclined(undefined);
    onPay();
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
    navigate(confirmationPath(orderId, checkout._id));
  };

  return (
    <aside aria-label="Order summary" className="h-fit rounded-lg border border-stone-200 bg-white p-5 text-sm">
      <ul className="space-y-1">
        {checkout.lineItems.map((l) => <li key={l._id} className="flex justify-between gap-2"><span>{l.quantity} × {l.productName.original}</span><span>{l.lineItemPrice.formattedAmount}</span></li>)}
      </ul>
      <SummaryTotals summary={checkout.priceSummary} />
      {shipTo && <p className="mt-2 text-stone-700">Ship to {shipTo}</p>}
      {problems.map((p) => (
        <p key={p.description} role="alert" className="mt-3 text-rose-800" data-testid="checkout-problem">
          {p.description}{' '}
          {/* A line's problem is fixed in the cart; the other one (no delivery to the address) at the address. */}
          {p.target.lineItem ? <Link to="/cart" className="underline">Fix it in the cart</Link>
            : <button type="button" className="underline" onClick={() => document.querySelector<HTMLInputElement>('#shipping-address input')?.focus()}>Change the shipping address</button>}
        </p>
      ))}
      <form onSubmit={(e) => void placeOrder(e).catch(() => undefined)} className="mt-4 space-y-3 border-t border-stone-200 pt-4" aria-labelledby="payment-title">
        <h2 id="payment-title" className="font-semibold">Payment</h2>
        <p className="text-xs text-stone-700">Test cards: 4242 4242 4242 4242 is charged, 4000 0000 0000 0002 is declined.</p>
        <label className="block">Card number<input name="cardNumber" required inputMode="numeric" autoComplete="cc-number" pattern="[0-9 ]{12,23}" className={input} /></label>
        <div className="flex gap-2">
          <label className="block flex-1">Expiry (MM/YY)<input name="expiry" required placeholder="12/30" autoComplete="cc-exp" pattern="[0-9]{1,2} ?/ ?[0-9]{2,4}" className={input} /></label>
          <label className="block w-20">CVC<input name="cvc" required inputMode="numeric" autoComplete="cc-csc" pattern="[0-9]{3,4}" className={input} /></label>
        </div>
        {declined && <p role="alert" className="text-rose-800" data-testid="payment-declined">{declined} Your order is saved: try another card.</p>}
        <button type="submit" disabled={place.isPending || (!placed && (!detailsSaved || problems.length > 0))}
          className={`w-full ${button}`}>{place.isPending ? 'Placing order…' : placed ? 'Pay for the order' : 'Place order and pay'}</button>
      </form>
      {place.error && <p role="alert" className="mt-2 text-rose-800" data-testid="place-order-error">{place.error.message} <Link to="/cart" className="underline">Back to the cart</Link></p>}
    </aside>
  );
}

function AddressFields({ legend, prefix, value, id: fieldsetId }: { legend: string; prefix: string; value: AddressWithContact; id?: string }) {
  const a = value?.address;
  const c = value?.contactDetails;
  const id = (name: string) => `${prefix}${name}`;
  return (
    <fieldset id={fieldsetId} className="grid gap-3 rounded-lg border border-stone-200 bg-white p-5 sm:grid-cols-2">
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
