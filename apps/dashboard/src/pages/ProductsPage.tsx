import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { loadSession, ownerFetch, type OwnerClient } from '../session';

interface Row {
  _id: string;
  name: string;
  sku?: string;
  visible: boolean;
  priceData: { formatted: { price: string; discountedPrice: string } };
  stock: { inventoryStatus: string; quantity?: number };
}

const PAGE_SIZE = 25;

export function ProductsPage({ client }: { client: OwnerClient }) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const products = useQuery({
    queryKey: ['owner-products', search, page],
    queryFn: async () => {
      let q = client.products.queryProducts().limit(PAGE_SIZE).skip(page * PAGE_SIZE).ascending('name');
      if (search.trim()) q = q.contains('name', search.trim());
      return q.find();
    },
  });
  const rows = (products.data?.items ?? []) as unknown as Row[];
  const total = products.data?.totalCount ?? 0;

  return (
    <section>
      <div className="mb-6 flex items-center gap-4">
        <h1 className="text-2xl font-semibold">Products</h1>
        <span className="text-sm text-slate-500" data-testid="product-total">{total} products</span>
        <input aria-label="Search" placeholder="Search by name" value={search} onChange={(e) => { setSearch(e.target.value); setPage(0); }} className="ml-auto rounded border border-slate-300 px-3 py-2 text-sm" />
      </div>
      <CreateProduct />
      {products.isError && <p role="alert" className="text-rose-700">{(products.error as Error).message}</p>}
      <table className="mt-6 w-full border-collapse bg-white text-sm">
        <thead><tr className="border-b text-left text-slate-500"><th className="p-2">Name</th><th className="p-2">SKU</th><th className="p-2">Price</th><th className="p-2">Stock</th><th className="p-2">Visible</th></tr></thead>
        <tbody>
          {rows.map((p) => (
            <tr key={p._id} className="border-b" data-testid="product-row">
              <td className="p-2 font-medium">{p.name}</td>
              <td className="p-2 font-mono text-xs">{p.sku ?? ''}</td>
              <td className="p-2">{p.priceData.formatted.discountedPrice}</td>
              <td className="p-2">{p.stock.inventoryStatus}{p.stock.quantity !== undefined ? ` (${p.stock.quantity})` : ''}</td>
              <td className="p-2">{p.visible ? 'yes' : 'no'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="mt-4 flex gap-2 text-sm">
        <button disabled={page === 0} onClick={() => setPage((p) => p - 1)} className="rounded border px-3 py-1 disabled:opacity-40">Previous</button>
        <button disabled={(page + 1) * PAGE_SIZE >= total} onClick={() => setPage((p) => p + 1)} className="rounded border px-3 py-1 disabled:opacity-40">Next</button>
      </div>
    </section>
  );
}

function CreateProduct() {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [price, setPrice] = useState('');
  const create = useMutation({
    mutationFn: () => ownerFetch(loadSession()!, '/stores/v1/products', { body: { product: { name, priceData: { price: Number(price) } } } }),
    onSuccess: async () => {
      setName('');
      setPrice('');
      await queryClient.invalidateQueries({ queryKey: ['owner-products'] });
    },
  });
  const submit = (e: FormEvent) => { e.preventDefault(); create.mutate(); };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <label className="text-sm">Name<input required value={name} onChange={(e) => setName(e.target.value)} className="mt-1 block rounded border border-slate-300 px-3 py-1.5" /></label>
      <label className="text-sm">Price<input required type="number" min="0" step="0.01" value={price} onChange={(e) => setPrice(e.target.value)} className="mt-1 block w-28 rounded border border-slate-300 px-3 py-1.5" /></label>
      <button disabled={create.isPending} className="rounded bg-slate-900 px-4 py-2 text-sm font-medium text-white">Add product</button>
      {create.isError && <p role="alert" className="text-sm text-rose-700">{(create.error as Error).message}</p>}
    </form>
  );
}
