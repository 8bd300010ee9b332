import { Link, useParams } from '../router';
import { useOrder } from '@vitrine/react';
import { Meta } from '../components/Meta';
import { useHydrated } from '../hydrated';

/** After place order: the order number (when the buyer may read the order) and the way back. */
export function OrderConfirmationPage() {
  const { orderId = '' } = useParams();
  const order = useOrder(orderId, useHydrated());
  // A member's paid order shows its digital lines' links here too.
  const downloads = order.data?.lineItems?.filter((l) => l.digitalFile) ?? [];
  return (
    <section className="mx-auto max-w-xl py-10 text-center">
      <Meta title="Thank you" description="Your order is placed." path="/order-confirmation" noindex />
      <h1 className="text-3xl font-semibold">Thank you, your order is placed</h1>
      <p className="mt-3 text-stone-700">
        {order.data ? <>Order number <span className="font-semibold" data-testid="order-number">{order.data.number}</span>.</> : <>Order reference <span className="font-mono" data-testid="order-id">{orderId}</span>.</>}
        {' '}We will e-mail you when it ships; download links for digital items come by e-mail once it is paid.
      </p>
      {downloads.length > 0 && (
        <ul className="mt-4 text-sm">
          {downloads.map((l) => <li key={l._id}><a href={l.digitalFile!.link} className="underline" data-testid="download-link">Download {l.productName?.original}</a></li>)}
        </ul>
      )}
      <Link to="/" className="mt-6 inline-block rounded-md bg-stone-900 px-5 py-2 text-sm font-medium text-white">Continue shopping</Link>
    </section>
  );
}
