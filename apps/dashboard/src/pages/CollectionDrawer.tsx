import { useMemo, useState, type FormEvent } from 'react';
import { useAddProductsToCollection, useProducts, useRemoveProductsFromCollection, useUpdateCollection } from '@vitrine/react';
import { ALL_PRODUCTS_ID, PRODUCT_SORTS, filterProducts, type Collection, type Product } from '../lib/catalog';
import { ErrorAlert, Notice } from '../components/Alert';
import { DataTable, type Column } from '../components/DataTable';
import { Drawer } from '../components/Modal';
import { TextField, primaryButton, secondaryButton, clearsOutcome } from '../components/Form';
import { Pager } from '../components/Pager';
import { useDebounced } from '../components/useDebounced';
import { useLocked } from '../components/useLocked';

const PAGE_SIZE = 10;

/** One collection: rename it, see its products, add and remove products. */
export function CollectionDrawer({ collection, onClose }: { collection: Collection; onClose: () => void }) {
  const builtIn = collection._id === ALL_PRODUCTS_ID;
  return (
    <Drawer title={collection.name} onClose={onClose}>
      {builtIn ? <p className="mb-4 text-sm text-slate-500">Every product is in this built-in collection.</p> : <Rename collection={collection} />}
      <Members collectionId={collection._id} editable={!builtIn} />
      {!builtIn && <AddProducts collectionId={collection._id} />}
    </Drawer>
  );
}

function Rename({ collection }: { collection: Collection }) {
  const [name, setName] = useState(collection.name);
  const rename = useUpdateCollection();
  const submit = (e: FormEvent) => { e.preventDefault(); rename.mutate({ _id: collection._id, collection: { name: name.trim() } }); };
  return (
    <form onSubmit={submit} {...clearsOutcome(rename)} aria-label="Rename collection" className="mb-6 flex items-end gap-3">
      <TextField label="Collection name" required maxLength={50} value={name} onChange={(e) => setName(e.target.value)} className="flex-1" />
      <button disabled={rename.isPending} className={primaryButton}>Rename</button>
      <div className="basis-full"><ErrorAlert error={rename.error} />{rename.isSuccess && <Notice>Renamed.</Notice>}</div>
    </form>
  );
}

function Members({ collectionId, editable }: { collectionId: string; editable: boolean }) {
  const [offset, setOffset] = useState(0);
  const build = useMemo(() => filterProducts({ collectionId }), [collectionId]);
  const products = useProducts({ build, sort: PRODUCT_SORTS['name-asc'].sort, skip: offset, limit: PAGE_SIZE, keepPrevious: true });
  const remove = useRemoveProductsFromCollection();
  const columns: Column<Product>[] = [
    { header: 'Product', cell: (p) => p.name },
    { header: 'Price', cell: (p) => p.priceData.formatted.discountedPrice },
    ...(editable ? [{
      header: 'Actions',
      cell: (p: Product) => <button type="button" aria-label={`Remove ${p.name}`} disabled={remove.isPending} onClick={() => remove.mutate({ _id: collectionId, productIds: [p._id] })} className={secondaryButton}>Remove</button>,
    }] : []),
  ];
  return (
    <div className="mb-6">
      <h3 className="mb-2 font-medium">Products in this collection</h3>
      <ErrorAlert error={remove.error} />
      <DataTable label="Products in collection" columns={columns} rows={products.data?.items} rowKey={(p) => p._id} rowTestId="collection-product"
        isLoading={products.isLoading} error={products.error} empty="No products in this collection." />
      {products.data && <Pager offset={offset} limit={PAGE_SIZE} count={products.data.items.length} total={products.data.totalCount} onChange={setOffset} />}
    </div>
  );
}

function AddProducts({ collectionId }: { collectionId: string }) {
  const [search, setSearch] = useState('');
  const term = useDebounced(search);
  const build = useMemo(() => filterProducts({ search: term, excludeCollectionId: collectionId }), [term, collectionId]);
  const candidates = useProducts({ build, sort: PRODUCT_SORTS['name-asc'].sort, limit: PAGE_SIZE, keepPrevious: true });
  const add = useLocked(useAddProductsToCollection());
  const columns: Column<Product>[] = [
    { header: 'Product', cell: (p) => p.name },
    { header: 'Actions', cell: (p) => <button type="button" aria-label={`Add ${p.name}`} disabled={add.isPending} onClick={() => add.mutate({ _id: collectionId, productIds: [p._id] })} className={secondaryButton}>Add</button> },
  ];
  return (
    <div>
      <h3 className="mb-2 font-medium">Add products</h3>
      <TextField label="Find products to add" value={search} onChange={(e) => setSearch(e.target.value)} className="mb-2" />
      <ErrorAlert error={add.error} />
      <DataTable label="Products to add" columns={columns} rows={candidates.data?.items} rowKey={(p) => p._id} rowTestId="candidate-product"
        isLoading={candidates.isLoading} error={candidates.error} empty="No other product matches." />
    </div>
  );
}
