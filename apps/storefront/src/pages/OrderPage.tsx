import { Link, useParams } from '../router';
import { useAuth, useOrder } from '@vitrine/react';
import { Meta } from '../components/Meta';
import { SummaryTotals } from '../components/OrderSummary';
import { OrderLines } from '../orders/OrderLines';
import { useHydrated } from '../hydrated';
import { delivery, fulfillmentLabel, paymentLabel } from '../orders/order-view';

/** One of the member's orders: lines with their options, totals, address, delivery and statuses. */
export function OrderPage() {
  const { id = '' } = useParams();
  const { loggedIn } = useAuth();
  const order = useOrder(id, useHydrated() && loggedIn);
  const o = order.data;
  const { shipTo, method } = o ? delivery(o) : {};
  return (
    <section className="max-w-2xl">
      <Meta title="Order" description="Your order." path="/account" noindex />
      <Link to="/account" className="text-sm underline">Back to your account</Link>
      {order.isError && <p role="alert" className="mt-4 text-rose-800">{order.error.message}</p>}
      {!o && !order.isError && <p className="mt-4 min-h-[30vh] text-stone-700" aria-busy="true">Loading…</p>}
      {o && (
        <>
          <h1 className="mt-2 text-2xl font-semibold" data-testid="order-title">Order {o.number}</h1>
          <p className="text-sm text-stone-700" data-testid="order-status">{o._createdDate?.toLocaleString()} · {paymentLabel(o)} · {fulfillmentLabel(o)}</p>
          <div className="mt-4">
            <OrderLines order={o} />
            <SummaryTotals summary={o.priceSummary} />
          </div>
          {(shipTo || method) && (
            <dl className="mt-6 grid grid-cols-[7rem_1fr] gap-x-4 gap-y-1 text-sm" data-testid="order-delivery">
              {shipTo && <><dt className="text-stone-700">Ship to</dt><dd>{shipTo}</dd></>}
              {method && <><dt className="text-stone-700">Delivery</dt><dd>{method}</dd></>}
            </dl>
          )}
        </>
      )}
    </section>
  );
}
