import { Link, useParams } from '../router';
import { useOrder } from '@vitrine/react';
import { Meta } from '../components/Meta';
import { useHydrated } from '../hydrated';

/** After place order: the order number (when the buyer may read the order) and the way back. */
export function OrderConfirmationPage() {
  const { orderId = '' } = useParams();
  const order = useOrder(orderId, useHydrated());
  return (
    <section className="mx-auto max-w-xl py-10 text-center">
      <Meta title="Thank you" description="Your order is placed." path="/order-confirmation" noindex />
      <h1 className="text-3xl font-semibold">Thank you, your order is placed</h1>
      <p className="mt-3 text-stone-700">
        {order.data ? <>Order number <span className="font-semibold" data-testid="order-number">{order.data.number}</span>.</> : <>Order reference <span className="font-mono" data-testid="order-id">{orderId}</span>.</>}
        {' '}We will e-mail you when it ships.
      </p>
      <Link to="/" className="mt-6 inline-block rounded-md bg-stone-900 px-5 py-2 text-sm font-medium text-white">Continue shopping</Link>
    </section>
  );
}
