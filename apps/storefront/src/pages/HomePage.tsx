import { Link } from '../router';
import { useCollectionList, useProductList } from '@vitrine/react';
import { Meta } from '../components/Meta';
import { ProductGrid } from '../components/ProductCard';
import { collectionImageUrl } from '../components/media';
import { STORE_DESCRIPTION, STORE_NAME } from '../site';
import { FEATURED } from '../catalog/queries';

export function HomePage() {
  const collections = useCollectionList();
  const featured = useProductList(FEATURED);
  const shelves = (collections.data ?? []).filter((c) => c.slug !== 'all-products');
  return (
    <>
      <Meta title={STORE_NAME} description={STORE_DESCRIPTION} path="/" />
      <section className="rounded-xl bg-stone-900 px-6 py-10 text-white sm:px-10">
        <h1 className="text-3xl font-semibold sm:text-4xl">{STORE_NAME}</h1>
        <p className="mt-3 max-w-xl text-stone-200">{STORE_DESCRIPTION}</p>
        <Link to="/search" className="mt-6 inline-block rounded-md bg-white px-5 py-2 text-sm font-medium text-stone-900">Shop all products</Link>
      </section>
      <section aria-labelledby="collections-title" className="mt-10">
        <h2 id="collections-title" className="text-xl font-semibold">Collections</h2>
        <ul className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5" data-testid="collection-tiles">
          {shelves.map((c) => {
            const image = collectionImageUrl(c.media);
            return (
              <li key={c._id}>
                <Link to={`/collections/${c.slug}`} className="group block rounded-lg">
                  <div className="aspect-[4/3] overflow-hidden rounded-lg bg-stone-200">
                    {image && <img src={image} alt="" width={400} height={300} loading="lazy" className="h-full w-full object-cover transition group-hover:scale-105" />}
                  </div>
                  <span className="mt-2 block text-sm font-medium group-hover:underline">{c.name}</span>
                </Link>
              </li>
            );
          })}
        </ul>
      </section>
      <section aria-labelledby="featured-title" className="mt-10">
        <div className="flex items-baseline justify-between">
          <h2 id="featured-title" className="text-xl font-semibold">New and featured</h2>
          <Link to="/search?sort=newest" className="text-sm underline">See all</Link>
        </div>
        <div className="mt-4"><ProductGrid items={featured.data?.items ?? []} /></div>
      </section>
    </>
  );
}
