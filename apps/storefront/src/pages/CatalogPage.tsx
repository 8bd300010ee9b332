import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from '../router';
import { useCollectionList, useProductList } from '@vitrine/react';
import { browse, browseSearch, parseBrowse, SORT_LABELS, SORTS, toggle, type BrowseState, type Facet, type Sort } from '../catalog/browse';
import { scopeOptions } from '../catalog/queries';
import { Meta } from '../components/Meta';
import { ProductGrid } from '../components/ProductCard';
import { NotFoundPage } from './NotFoundPage';

/** How long typing pauses before the search runs (and the URL changes). */
export const SEARCH_DEBOUNCE_MS = 300;

/** The pages of this module's routes (each route's page is one export, loaded with its chunk). */
export const CollectionPage = () => <CatalogPage mode="collection" />;
export const SearchPage = () => <CatalogPage mode="search" />;

/** A collection page (`/collections/:slug`) or the search page (`/search`, every product). */
export function CatalogPage({ mode }: { mode: 'collection' | 'search' }) {
  const { slug = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const state = useMemo(() => parseBrowse(new URLSearchParams(location.search)), [location.search]);
  const collections = useCollectionList();
  const shelf = mode === 'collection' ? collections.data?.find((c) => c.slug === slug) : undefined;
  const scope = useProductList(scopeOptions(shelf?._id), mode === 'search' || Boolean(shelf));
  const result = useMemo(
    () => (scope.data && collections.data ? browse(scope.data.items, collections.data, state, { collectionFacet: mode === 'search' }) : undefined),
    [scope.data, collections.data, state, mode],
  );
  const go = (next: BrowseState, replace = false) => navigate({ pathname: location.pathname, search: browseSearch(next) }, { replace, preventScrollReset: true });

  if (mode === 'collection' && collections.isSuccess && !shelf) return <NotFoundPage what="collection" />;
  const title = mode === 'search' ? (state.q ? `Search: ${state.q}` : 'All products') : shelf?.name ?? '';
  const description = mode === 'search' ? 'Search coffee, tea, gear and gifts by name, description, collection or SKU.' : shelf?.description ?? `Products in ${title}.`;
  const canonical = mode === 'search' ? '/search' : `/collections/${slug}`;

  return (
    <section>
      <Meta title={title} description={description} path={canonical} />
      <div className="mb-6 flex flex-wrap items-end gap-4">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold">{title}</h1>
          {mode === 'collection' && shelf?.description && <p className="mt-1 text-stone-700">{shelf.description}</p>}
          <p className="mt-1 text-sm text-stone-700" data-testid="total" aria-live="polite">{result ? `${result.total} ${result.total === 1 ? 'product' : 'products'}` : '\u00a0'}</p>
        </div>
        <div className="ml-auto flex flex-wrap items-end gap-3">
          {mode === 'search' && <SearchBox value={state.q} onSearch={(q) => go({ ...state, q, page: 1 }, true)} />}
          <div>
            <label htmlFor="sort" className="block text-xs text-stone-700">Sort by</label>
            <select id="sort" value={state.sort} onChange={(e) => go({ ...state, sort: SORTS.find((s) => s === e.target.value) ?? 'featured', page: 1 })} className="rounded-md border border-stone-400 bg-white px-3 py-2 text-sm">
              {SORTS.map((s: Sort) => <option key={s} value={s}>{SORT_LABELS[s]}</option>)}
            </select>
          </div>
        </div>
      </div>
      <div className="grid gap-8 md:grid-cols-[13rem_1fr]">
        <aside aria-label="Filters">
          {result?.facets.map((f) => <FacetGroup key={f.title} facet={f} onToggle={(value) => go(toggle(state, f.key, value))} />)}
        </aside>
        <div>
          {scope.isError && <p role="alert" className="rounded bg-rose-50 p-4 text-rose-900">Could not load products: {scope.error.message}</p>}
          {result && result.total === 0 && (
            <div className="rounded-lg border border-dashed border-stone-400 p-8 text-center" data-testid="no-results">
              <p className="font-medium">No products match{state.q ? ` "${state.q}"` : ''}.</p>
              <p className="mt-1 text-sm text-stone-700">Check the spelling, use fewer words or clear the filters.</p>
              <Link to={location.pathname} className="mt-4 inline-block rounded-md border border-stone-400 px-4 py-2 text-sm">Clear search and filters</Link>
            </div>
          )}
          {result && <ProductGrid items={result.items} eagerCount={mode === 'collection' ? 4 : 2} />}
          {result && result.pages > 1 && <Pager state={state} page={result.page} pages={result.pages} />}
        </div>
      </div>
    </section>
  );
}

/** Typing updates the results after a pause; the URL follows (replace, so Back leaves the search). */
function SearchBox({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(value);
  const latest = useRef(onSearch);
  latest.current = onSearch;
  // A new URL (Back, a header search) shows its own text.
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text.trim() === value) return;
    const timer = setTimeout(() => latest.current(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value]);
  return (
    <div>
      <label htmlFor="search-products" className="block text-xs text-stone-700">Search products</label>
      <input id="search-products" type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="Name, SKU, collection…" className="w-56 rounded-md border border-stone-400 bg-white px-3 py-2 text-sm" />
    </div>
  );
}

function FacetGroup({ facet, onToggle }: { facet: Facet; onToggle: (value: string) => void }) {
  return (
    <fieldset className="mb-5" data-testid={`facet-${facet.title}`}>
      <legend className="mb-2 text-sm font-semibold">{facet.title}</legend>
      <ul className="space-y-1 text-sm">
        {facet.values.map((v) => (
          <li key={v.value}>
            <label className="flex cursor-pointer items-center gap-2">
              <input type="checkbox" checked={v.selected} onChange={() => onToggle(v.value)} className="h-4 w-4 accent-stone-900" />
              <span>{v.label}</span>{' '}
              <span className="ml-auto text-stone-600">{v.count}</span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** Page links (plain URLs: Back returns to the page the shopper was on). */
function Pager({ state, page, pages }: { state: BrowseState; page: number; pages: number }) {
  const { pathname } = useLocation();
  const to = (n: number) => ({ pathname, search: browseSearch({ ...state, page: n }) });
  return (
    <nav aria-label="Pages" className="mt-8 flex flex-wrap items-center justify-center gap-2 text-sm">
      {page > 1 && <Link to={to(page - 1)} className="rounded-md border border-stone-400 px-3 py-1.5" rel="prev">Previous</Link>}
      {Array.from({ length: pages }, (_, i) => i + 1).map((n) => (
        <Link key={n} to={to(n)} aria-current={n === page ? 'page' : undefined} aria-label={`Page ${n}`} className={`rounded-md px-3 py-1.5 ${n === page ? 'bg-stone-900 text-white' : 'border border-stone-400'}`}>{n}</Link>
      ))}
      {page < pages && <Link to={to(page + 1)} className="rounded-md border border-stone-400 px-3 py-1.5" rel="next">Next</Link>}
    </nav>
  );
}
