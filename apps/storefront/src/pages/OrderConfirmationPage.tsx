import { Link, useParams, useSearchParams } from '../router';
import { useAuth, useCheckout, useOrder } from '@vitrine/react';
import { Meta } from '../components/Meta';
import { SummaryLines, SummaryTotals } from '../components/OrderSummary';
import { useHydrated } from '../hydrated';
import { useCheckoutOrderId } from '../orders/checkout-order';
import { checkoutLines } from '../orders/order-view';
import { OrderLines } from '../orders/OrderLines';

/**
 * After place order (`/order-confirmation/<orderId>?checkout=<checkoutId>`): only what the shopper's
 * session can prove. A member reads the order (number, lines, totals). A visitor may not read orders,
 * so the page reads the checkout they paid and shows it when it is completed and placed this very
 * order. Anything else (a wrong id, someone else's order) is "not found", never a thank-you.
 */
export function OrderConfirmationPage() {
  const { orderId = '' } = useParams();
  const [params] = useSearchParams();
  const checkoutId = params.get('checkout') ?? undefined;
  const hydrated = useHydrated();
  const { loggedIn } = useAuth();
  const order = useOrder(orderId, hydrated && loggedIn);
  const readCheckout = hydrated && checkoutId !== undefined && (!loggedIn || order.isError);
  const checkout = useCheckout(readCheckout ? checkoutId : undefined);
  const placed = useCheckoutOrderId(checkout.data);
  const paid = checkout.data?.completed && placed === orderId ? checkout.data : undefined;
  const loading = !hydrated || (loggedIn && order.isPending) || (readCheckout && checkout.isPending) || (checkout.data?.completed && placed === undefined);

  if (loading) return <section className="mx-auto min-h-[40vh] max-w-xl py-10" aria-busy="true"><Meta title="Your order" description="Your order." path="/order-confirmation" noindex /></section>;
  if (!order.data && !paid) {
    return (
      <section className="mx-auto max-w-xl py-10 text-center" data-testid="order-not-found">
        <Meta title="Order not found" description="We could not find this order." path="/order-confirmation" noindex />
        <h1 className="text-3xl font-semibold">We could not find this order</h1>
        <p className="mt-3 text-stone-700">
          This link does not lead to an order of yours. If you placed an order, its confirmation e-mail has the details;
          {loggedIn ? ' your account lists your orders.' : ' members find their orders in their account.'}
        </p>
        <div className="mt-6 flex justify-center gap-3">
          <Link to="/account" className="rounded-md border border-stone-900 px-5 py-2 text-sm font-medium">Your account</Link>
          <Link to="/" className="rounded-md bg-stone-900 px-5 py-2 text-sm font-medium text-white">Continue shopping</Link>
        </div>
      </section>
    );
  }
  return (
    <section className="mx-auto max-w-xl py-10">
      <Meta title="Thank you" description="Your order is placed." path="/order-confirmation" noindex />
      <h1 className="text-center text-3xl font-semibold">Thank you, your order is placed</h1>
      <p className="mt-3 text-center text-stone-700">
        {order.data ? <>Order number <span className="font-semibold" data-testid="order-number">{order.data.number}</span>.</> : <>Order reference <span className="font-mono" data-testid="order-id">{orderId}</span>.</>}
        {' '}We will e-mail you when it ships; download links for digital items come by e-mail once it is paid.
      </p>
      <div className="mt-6 rounded-lg border border-stone-200 bg-white p-5" data-testid="order-summary">
        {order.data ? <OrderLines order={order.data} /> : paid && <SummaryLines lines={checkoutLines(paid)} />}
        <SummaryTotals summary={order.data?.priceSummary ?? paid?.priceSummary} />
      </div>
      <p className="mt-6 text-center"><Link to="/" className="inline-block rounded-md bg-stone-900 px-5 py-2 text-sm font-medium text-white">Continue shopping</Link></p>
    </section>
  );
}
