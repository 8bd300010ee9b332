import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useCollections, useInfiniteProducts } from '@vitrine/react';
import type { products } from '@vitrine/sdk/stores';
import { ProductCard } from '../components/ProductCard';

const PAGE_SIZE = 12;
type Sort = 'newest' | 'price-asc' | 'price-desc' | 'name';

/** Sort of each choice; `newest` is the server's default order. */
const SORTS: Record<Sort, readonly { fieldName: products.ProductField; order: 'ASC' | 'DESC' }[]> = {
  newest: [],
  'price-asc': [{ fieldName: 'price', order: 'ASC' }],
  'price-desc': [{ fieldName: 'price', order: 'DESC' }],
  name: [{ fieldName: 'name', order: 'ASC' }],
};

export function CatalogPage() {
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<Sort>('newest');
  const [params, setParams] = useSearchParams();
  const collectionSlug = params.get('collection') ?? undefined;
  const shelves = useCollections({ limit: 50 });
  const shelf = shelves.data?.items.find((c) => c.slug === collectionSlug);
  const shelfId = shelf?._id;
  const term = search.trim();
  const build = useCallback((q: products.ProductsQueryBuilder) => {
    if (shelfId) q = q.hasSome('collectionIds', [shelfId]);
    return term ? q.contains('name', term) : q;
  }, [shelfId, term]);
  const result = useInfiniteProducts({ limit: PAGE_SIZE, sort: SORTS[sort], build, enabled: !collectionSlug || shelves.isSuccess });
  const items = useMemo(() => result.data?.pages.flatMap((p) => p.items) ?? [], [result.data]);
  const total = result.data?.pages[0]?.totalCount;

  return (
    <section>
      <div className="mb-6 flex flex-wrap items-end gap-4">
        <div>
          <h1 className="text-2xl font-semibold">{shelf?.name ?? 'All products'}</h1>
          {total !== undefined && <p className="text-sm text-stone-500" data-testid="total">{total} products</p>}
        </div>
        <input
          aria-label="Search products"
          placeholder="Search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          className="ml-auto rounded-md border border-stone-300 bg-white px-3 py-2 text-sm"
        />
        <select aria-label="Sort" value={sort} onChange={(e) => setSort(e.target.value as Sort)} className="rounded-md border border-stone-300 bg-white px-3 py-2 text-sm">
          <option value="newest">Newest</option>
          <option value="price-asc">Price: low to high</option>
          <option value="price-desc">Price: high to low</option>
          <option value="name">Name</option>
        </select>
      </div>
      <nav aria-label="Collections" className="mb-6 flex flex-wrap gap-2 text-sm">
        {[{ slug: undefined, name: 'All' }, ...(shelves.data?.items ?? []).filter((c) => c.slug !== 'all-products')].map((c) => (
          <button
            key={c.slug ?? 'all'}
            aria-pressed={c.slug === collectionSlug}
            onClick={() => setParams(c.slug ? { collection: c.slug } : {})}
            className={`rounded-full border px-3 py-1 ${c.slug === collectionSlug ? 'border-stone-900 bg-stone-900 text-white' : 'border-stone-300 bg-white'}`}
          >{c.name}</button>
        ))}
      </nav>
      {result.isError && <p role="alert" className="rounded bg-rose-50 p-4 text-rose-800">Could not load products: {result.error.message}</p>}
      {result.isPending && <p className="text-stone-500">Loading…</p>}
      <div className="grid grid-cols-2 gap-6 sm:grid-cols-3 lg:grid-cols-4" data-testid="product-grid">
        {items.map((p) => <ProductCard key={p._id} product={p} />)}
      </div>
      {result.hasNextPage && (
        <div className="mt-8 text-center">
          <button onClick={() => result.fetchNextPage()} disabled={result.isFetchingNextPage} className="rounded-md bg-stone-900 px-5 py-2 text-sm font-medium text-white disabled:opacity-50">
            {result.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </button>
        </div>
      )}
    </section>
  );
}
