import { Link } from '../router';
import { Meta } from '../components/Meta';

/** Unknown paths and missing products: the server answers this page with status 404. */
export function NotFoundPage({ what = 'page' }: { what?: 'page' | 'product' | 'collection' }) {
  return (
    <section className="mx-auto max-w-xl py-12 text-center" data-testid="not-found">
      <Meta title="Not found" description={`This ${what} does not exist.`} path="/" noindex />
      <h1 className="text-3xl font-semibold">We could not find that {what}</h1>
      <p className="mt-3 text-stone-700">It may have moved or sold out for good. Try searching, or start from the shop.</p>
      <div className="mt-6 flex justify-center gap-3">
        <Link to="/" className="rounded-md bg-stone-900 px-5 py-2 text-sm font-medium text-white">Back to the shop</Link>
        <Link to="/search" className="rounded-md border border-stone-400 px-5 py-2 text-sm">Search products</Link>
      </div>
    </section>
  );
}
