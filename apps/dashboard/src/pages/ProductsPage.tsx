import { useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useCollections, useCreateProduct, useDeleteProduct, useProducts } from '@vitrine/react';
import { CATALOG_PAGE_MAX, PRODUCT_LIMITS, PRODUCT_SORTS, filterProducts, optionInputs, type OptionDraft, type Product, type ProductSort, type StockFilter, type VisibilityFilter } from '../lib/catalog';
import { ErrorAlert } from '../components/Alert';
import { ConfirmButton } from '../components/ConfirmButton';
import { DataTable, type Column } from '../components/DataTable';
import { PageHeader, SelectField, TextField, primaryButton, secondaryButton } from '../components/Form';
import { Pager } from '../components/Pager';
import { ProductDrawer } from './ProductDrawer';
import { ProductsBulk } from './ProductsBulk';
import { useDebounced } from '../components/useDebounced';
import { useLocked } from '../components/useLocked';

const PAGE_SIZE = 25;

export function ProductsPage() {
  const [search, setSearch] = useState('');
  const [collectionId, setCollectionId] = useState('');
  const [visibility, setVisibility] = useState<VisibilityFilter>('');
  const [stock, setStock] = useState<StockFilter>('');
  const [brand, setBrand] = useState('');
  const [sort, setSort] = useState<ProductSort>('name-asc');
  const [offset, setOffset] = useState(0);
  const [openId, setOpenId] = useState<string>();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const tick = (id: string, on: boolean) => setSelected((s) => { const next = new Set(s); if (on) next.add(id); else next.delete(id); return next; });
  const term = useDebounced(search);
  const brandTerm = useDebounced(brand);
  const build = useMemo(() => filterProducts({ search: term, collectionId: collectionId || undefined, visibility, stock, brand: brandTerm }), [term, collectionId, visibility, stock, brandTerm]);
  const filtered = Boolean(search || collectionId || visibility || stock || brand);
  const products = useProducts({ sort: PRODUCT_SORTS[sort].sort, skip: offset, limit: PAGE_SIZE, build, keepPrevious: true });
  const collections = useCollections({ limit: CATALOG_PAGE_MAX });
  const remove = useDeleteProduct();
  const navigate = useNavigate();
  const total = products.data?.totalCount ?? 0;

  const pageIds = products.data?.items.map((p) => p._id) ?? [];
  const allTicked = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  const columns: Column<Product>[] = [
    {
      header: 'Select',
      cell: (p) => <input type="checkbox" aria-label={`Select ${p.name}`} checked={selected.has(p._id)} onChange={(e) => tick(p._id, e.target.checked)} />,
    },
    { header: 'Name', cell: (p) => <button type="button" onClick={() => setOpenId(p._id)} className="text-left font-medium hover:underline">{p.name}</button> },
    { header: 'SKU', cell: (p) => <span className="font-mono text-xs">{p.sku ?? ''}</span> },
    {
      header: 'Price',
      cell: (p) => p.priceData.discountedPrice < p.priceData.price
        ? <span>{p.priceData.formatted.discountedPrice} <s className="text-slate-600">{p.priceData.formatted.price}</s></span>
        : p.priceData.formatted.discountedPrice,
    },
    { header: 'Stock', cell: (p) => `${p.stock.inventoryStatus}${p.stock.quantity !== undefined ? ` (${p.stock.quantity})` : ''}` },
    { header: 'Visible', cell: (p) => (p.visible ? 'yes' : 'no') },
    {
      header: 'Actions',
      cell: (p) => (
        <span className="flex gap-2">
        <Link to={`/products/${encodeURIComponent(p._id)}`} aria-label={`Edit ${p.name}`} className="rounded border border-slate-300 px-2 py-1 text-xs hover:bg-slate-100">Edit</Link>
        <ConfirmButton label="Delete" ariaLabel={`Delete ${p.name}`} title="Delete product" confirmLabel="Delete product"
          message={`Delete “${p.name}”? It disappears from the store and from every collection. This cannot be undone.`}
          onConfirm={() => remove.mutateAsync(p._id)} />
        </span>
      ),
    },
  ];

  return (
    <section>
      <PageHeader title="Products">
        <span className="text-sm text-slate-500" data-testid="product-total">{total} products</span>
        <Link to="/products-v3" className="text-sm underline">V3 catalog products</Link>
        <div className="flex flex-wrap items-end gap-3 md:ml-auto">
          <SelectField label="Collection" value={collectionId} onChange={(e) => { setCollectionId(e.target.value); setOffset(0); }}>
            <option value="">All collections</option>
            {(collections.data?.items ?? []).map((c) => <option key={c._id} value={c._id}>{c.name}</option>)}
          </SelectField>
          <SelectField label="Visibility" value={visibility} onChange={(e) => { setVisibility(e.target.value as VisibilityFilter); setOffset(0); }}>
            <option value="">Shown or hidden</option>
            <option value="visible">Shown in the store</option>
            <option value="hidden">Hidden from the store</option>
          </SelectField>
          <SelectField label="Stock" value={stock} onChange={(e) => { setStock(e.target.value as StockFilter); setOffset(0); }}>
            <option value="">Any availability</option>
            <option value="in">Available</option>
            <option value="out">Sold out</option>
          </SelectField>
          <input aria-label="Brand" placeholder="Brand" value={brand} onChange={(e) => { setBrand(e.target.value); setOffset(0); }} className="w-28 rounded border border-slate-300 px-3 py-1.5 text-sm" />
          <SelectField label="Sort by" value={sort} onChange={(e) => { setSort(e.target.value as ProductSort); setOffset(0); }}>
            {Object.entries(PRODUCT_SORTS).map(([key, s]) => <option key={key} value={key}>{s.label}</option>)}
          </SelectField>
          <input aria-label="Search" placeholder="Search by name" value={search} onChange={(e) => { setSearch(e.target.value); setOffset(0); }} className="rounded border border-slate-300 px-3 py-1.5 text-sm" />
        </div>
      </PageHeader>
      {/* Creation lands on the new product's editor page (options, variants, images, the rest). */}
      <CreateProduct onCreated={(id) => { void navigate(`/products/${encodeURIComponent(id)}`); }} />
      <div className="mt-6">
        <label className="mb-2 flex items-center gap-2 text-sm">
          <input type="checkbox" checked={allTicked} onChange={(e) => setSelected(e.target.checked ? new Set([...selected, ...pageIds]) : new Set([...selected].filter((id) => !pageIds.includes(id))))} />
          Select all on this page
        </label>
        {selected.size > 0 && <ProductsBulk ids={[...selected]} collections={collections.data?.items ?? []} onDone={() => setSelected(new Set())} />}
        <DataTable label="Products" columns={columns} rows={products.data?.items} rowKey={(p) => p._id} rowTestId="product-row"
          isLoading={products.isLoading} error={products.error} empty={filtered ? 'No product matches.' : 'No products yet.'} />
        {products.data && <Pager offset={offset} limit={PAGE_SIZE} count={products.data.items.length} total={products.data.totalCount} onChange={setOffset} />}
      </div>
      {openId && <ProductDrawer id={openId} collections={collections.data?.items ?? []} onClose={() => setOpenId(undefined)} />}
    </section>
  );
}


function CreateProduct({ onCreated }: { onCreated: (id: string) => void }) {
  const [name, setName] = useState('');
  const [price, setPrice] = useState('');
  const [cost, setCost] = useState('');
  const [sku, setSku] = useState('');
  const [description, setDescription] = useState('');
  const [options, setOptions] = useState<OptionDraft[]>([]);
  const create = useLocked(useCreateProduct());
  const setOption = (i: number, patch: Partial<OptionDraft>) => setOptions((list) => list.map((o, j) => (j === i ? { ...o, ...patch } : o)));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const productOptions = optionInputs(options);
    create.mutate({
      name: name.trim(),
      priceData: { price: Number(price) },
      ...(cost ? { costAndProfitData: { itemCost: Number(cost) } } : {}),
      ...(sku.trim() ? { sku: sku.trim() } : {}),
      ...(description.trim() ? { description: description.trim() } : {}),
      ...(productOptions.length ? { productOptions, manageVariants: true } : {}),
    }, {
      onSuccess: (product) => {
        setName(''); setPrice(''); setCost(''); setSku(''); setDescription(''); setOptions([]);
        onCreated(product._id);
      },
    });
  };
  return (
    <form onSubmit={submit} aria-label="New product" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-end gap-3">
        <TextField label="Name" required maxLength={80} value={name} onChange={(e) => setName(e.target.value)} />
        <TextField label="Price" required type="number" min="0" step="0.01" value={price} onChange={(e) => setPrice(e.target.value)} className="w-28" />
        <TextField label="Cost" type="number" min="0" step="0.01" value={cost} onChange={(e) => setCost(e.target.value)} className="w-28" />
        <TextField label="SKU" maxLength={40} value={sku} onChange={(e) => setSku(e.target.value)} className="w-36" />
      </div>
      <label className="block text-sm">Description<textarea value={description} maxLength={8000} onChange={(e) => setDescription(e.target.value)} rows={2} className="mt-1 block w-full rounded border border-slate-300 px-3 py-1.5 text-sm" /></label>
      <fieldset className="space-y-2">
        <legend className="text-sm">Options (each choice makes variants)</legend>
        {options.map((o, i) => (
          <div key={i} className="flex flex-wrap items-end gap-3" data-testid="new-option">
            <TextField label={`Option ${i + 1} name`} value={o.name} placeholder="Size" onChange={(e) => setOption(i, { name: e.target.value })} />
            <TextField label={`Option ${i + 1} choices`} value={o.choices} placeholder="S, M, L" onChange={(e) => setOption(i, { choices: e.target.value })} className="min-w-64 flex-1" />
            <button type="button" className={secondaryButton} aria-label={`Remove option ${i + 1}`} onClick={() => setOptions((list) => list.filter((_, j) => j !== i))}>Remove</button>
          </div>
        ))}
        {options.length < PRODUCT_LIMITS.options && (
          <button type="button" className={secondaryButton} onClick={() => setOptions((list) => [...list, { name: '', choices: '' }])}>Add option</button>
        )}
      </fieldset>
      <button disabled={create.isPending} className={primaryButton}>Add product</button>
      <ErrorAlert error={create.error} />
    </form>
  );
}
