import { Link, useParams } from '../router';
import { useAuth, useOrder } from '@vitrine/react';
import { Meta } from '../components/Meta';
import { useHydrated } from '../hydrated';

/** One of the member's orders: lines, totals, payment and fulfillment status. */
export function OrderPage() {
  const { id = '' } = useParams();
  const { loggedIn } = useAuth();
  const order = useOrder(id, useHydrated() && loggedIn);
  const o = order.data;
  return (
    <section className="max-w-2xl">
      <Meta title="Order" description="Your order." path="/account" noindex />
      <Link to="/account" className="text-sm underline">Back to your account</Link>
      {order.isError && <p role="alert" className="mt-4 text-rose-800">{order.error.message}</p>}
      {!o && !order.isError && <p className="mt-4 min-h-[30vh] text-stone-700" aria-busy="true">Loading…</p>}
      {o && (
        <>
          <h1 className="mt-2 text-2xl font-semibold" data-testid="order-title">Order {o.number}</h1>
          <p className="text-sm text-stone-700">{o._createdDate?.toLocaleString()} · {o.paymentStatus} · {o.fulfillmentStatus}</p>
          <ul className="mt-4 divide-y divide-stone-200 text-sm">
            {o.lineItems?.map((l) => (
              <li key={l._id} className="flex justify-between gap-3 py-2">
                <span>
                  {l.quantity} × {l.productName?.original}
                  {l.digitalFile && (
                    <a href={l.digitalFile.link} className="ml-3 underline" data-testid="download-link" title={`Link valid until ${l.digitalFile.expirationDate.toLocaleString()}`}>Download</a>
                  )}
                </span>
                <span>{l.totalPriceAfterTax?.formattedAmount}</span>
              </li>
            ))}
          </ul>
          <p className="mt-3 text-right font-semibold">Total {o.priceSummary?.total?.formattedAmount}</p>
        </>
      )}
    </section>
  );
}
