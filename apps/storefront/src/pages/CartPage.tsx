import { Meta } from '../components/Meta';

export function CartPage() {
  return (
    <section>
      <Meta title="Cart" description="Your cart." path="/cart" noindex />
      <h1 className="text-2xl font-semibold">Your cart</h1>
      <p className="mt-2 text-stone-700">Your cart is empty.</p>
    </section>
  );
}
