import { useState, type FormEvent } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../api/client';
import { CATALOG_PAGE_MAX, PRODUCT_SORTS, createProduct, deleteProduct, queryCollections, queryProducts, type Product, type ProductSort } from '../api/catalog';
import { ErrorAlert } from '../components/Alert';
import { ConfirmButton } from '../components/ConfirmButton';
import { DataTable, type Column } from '../components/DataTable';
import { PageHeader, SelectField, TextField, primaryButton } from '../components/Form';
import { Pager } from '../components/Pager';
import { ProductDrawer } from './ProductDrawer';
import { useDebounced } from '../components/useDebounced';

const PAGE_SIZE = 25;

export function ProductsPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [collectionId, setCollectionId] = useState('');
  const [sort, setSort] = useState<ProductSort>('name-asc');
  const [offset, setOffset] = useState(0);
  const [openId, setOpenId] = useState<string>();
  const term = useDebounced(search);
  const products = useQuery({
    queryKey: ['products', term, collectionId, sort, offset],
    queryFn: () => queryProducts(api, { search: term, collectionId: collectionId || undefined, sort, offset, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const collections = useQuery({ queryKey: ['collections', 'all'], queryFn: () => queryCollections(api, 0, CATALOG_PAGE_MAX) });
  const remove = useMutation({
    mutationFn: (id: string) => deleteProduct(api, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['products'] }),
  });
  const total = products.data?.metadata.total ?? 0;

  const columns: Column<Product>[] = [
    { header: 'Name', cell: (p) => <button type="button" onClick={() => setOpenId(p.id)} className="text-left font-medium hover:underline">{p.name}</button> },
    { header: 'SKU', cell: (p) => <span className="font-mono text-xs">{p.sku ?? ''}</span> },
    {
      header: 'Price',
      cell: (p) => p.priceData.discountedPrice < p.priceData.price
        ? <span>{p.priceData.formatted.discountedPrice} <s className="text-slate-400">{p.priceData.formatted.price}</s></span>
        : p.priceData.formatted.discountedPrice,
    },
    { header: 'Stock', cell: (p) => `${p.stock.inventoryStatus}${p.stock.quantity !== undefined ? ` (${p.stock.quantity})` : ''}` },
    { header: 'Visible', cell: (p) => (p.visible ? 'yes' : 'no') },
    {
      header: 'Actions',
      cell: (p) => (
        <ConfirmButton label="Delete" ariaLabel={`Delete ${p.name}`} title="Delete product" confirmLabel="Delete product"
          message={`Delete “${p.name}”? It disappears from the store and from every collection. This cannot be undone.`}
          onConfirm={() => remove.mutateAsync(p.id)} />
      ),
    },
  ];

  return (
    <section>
      <PageHeader title="Products">
        <span className="text-sm text-slate-500" data-testid="product-total">{total} products</span>
        <div className="ml-auto flex items-end gap-3">
          <SelectField label="Collection" value={collectionId} onChange={(e) => { setCollectionId(e.target.value); setOffset(0); }}>
            <option value="">All collections</option>
            {(collections.data?.collections ?? []).map((c) => <option key={c.id} value={c.id}>{c.name}</option>)}
          </SelectField>
          <SelectField label="Sort by" value={sort} onChange={(e) => { setSort(e.target.value as ProductSort); setOffset(0); }}>
            {Object.entries(PRODUCT_SORTS).map(([key, s]) => <option key={key} value={key}>{s.label}</option>)}
          </SelectField>
          <input aria-label="Search" placeholder="Search by name" value={search} onChange={(e) => { setSearch(e.target.value); setOffset(0); }} className="rounded border border-slate-300 px-3 py-1.5 text-sm" />
        </div>
      </PageHeader>
      <CreateProduct />
      <div className="mt-6">
        <DataTable label="Products" columns={columns} rows={products.data?.products} rowKey={(p) => p.id} rowTestId="product-row"
          isLoading={products.isLoading} error={products.error} empty={search || collectionId ? 'No product matches.' : 'No products yet.'} />
        {products.data && <Pager offset={offset} limit={PAGE_SIZE} count={products.data.products.length} total={products.data.metadata.total} onChange={setOffset} />}
      </div>
      {openId && <ProductDrawer id={openId} collections={collections.data?.collections ?? []} onClose={() => setOpenId(undefined)} />}
    </section>
  );
}

function CreateProduct() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [price, setPrice] = useState('');
  const create = useMutation({
    mutationFn: () => createProduct(api, { name, priceData: { price: Number(price) } }),
    onSuccess: async () => {
      setName('');
      setPrice('');
      await queryClient.invalidateQueries({ queryKey: ['products'] });
    },
  });
  const submit = (e: FormEvent) => { e.preventDefault(); create.mutate(); };
  return (
    <form onSubmit={submit} aria-label="New product" className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <TextField label="Name" required value={name} onChange={(e) => setName(e.target.value)} />
      <TextField label="Price" required type="number" min="0" step="0.01" value={price} onChange={(e) => setPrice(e.target.value)} className="w-28" />
      <button disabled={create.isPending} className={primaryButton}>Add product</button>
      <ErrorAlert error={create.error} />
    </form>
  );
}
