import { useState, type FormEvent } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../api/client';
import { ALL_PRODUCTS_ID, addToCollection, queryProducts, removeFromCollection, renameCollection, type Collection, type Product } from '../api/catalog';
import { ErrorAlert, Notice } from '../components/Alert';
import { DataTable, type Column } from '../components/DataTable';
import { Drawer } from '../components/Modal';
import { TextField, primaryButton, secondaryButton } from '../components/Form';
import { Pager } from '../components/Pager';
import { useDebounced } from '../components/useDebounced';

const PAGE_SIZE = 10;

/** One collection: rename it, see its products, add and remove products. */
export function CollectionDrawer({ collection, onClose }: { collection: Collection; onClose: () => void }) {
  const builtIn = collection.id === ALL_PRODUCTS_ID;
  return (
    <Drawer title={collection.name} onClose={onClose}>
      {builtIn ? <p className="mb-4 text-sm text-slate-500">Every product is in this built-in collection.</p> : <Rename collection={collection} />}
      <Members collectionId={collection.id} editable={!builtIn} />
      {!builtIn && <AddProducts collectionId={collection.id} />}
    </Drawer>
  );
}

function Rename({ collection }: { collection: Collection }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [name, setName] = useState(collection.name);
  const rename = useMutation({
    mutationFn: () => renameCollection(api, collection.id, name.trim()),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['collections'] }),
  });
  const submit = (e: FormEvent) => { e.preventDefault(); rename.mutate(); };
  return (
    <form onSubmit={submit} aria-label="Rename collection" className="mb-6 flex items-end gap-3">
      <TextField label="Collection name" required maxLength={50} value={name} onChange={(e) => setName(e.target.value)} className="flex-1" />
      <button disabled={rename.isPending} className={primaryButton}>Rename</button>
      <div className="basis-full"><ErrorAlert error={rename.error} />{rename.isSuccess && <Notice>Renamed.</Notice>}</div>
    </form>
  );
}

function useInvalidateCatalog() {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: ['collections'] });
    await queryClient.invalidateQueries({ queryKey: ['products'] });
    await queryClient.invalidateQueries({ queryKey: ['collection-products'] });
  };
}

function Members({ collectionId, editable }: { collectionId: string; editable: boolean }) {
  const api = useApi();
  const invalidate = useInvalidateCatalog();
  const [offset, setOffset] = useState(0);
  const products = useQuery({
    queryKey: ['collection-products', collectionId, 'in', offset],
    queryFn: () => queryProducts(api, { collectionId, offset, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation({ mutationFn: (id: string) => removeFromCollection(api, collectionId, [id]), onSuccess: invalidate });
  const columns: Column<Product>[] = [
    { header: 'Product', cell: (p) => p.name },
    { header: 'Price', cell: (p) => p.priceData.formatted.discountedPrice },
    ...(editable ? [{
      header: 'Actions',
      cell: (p: Product) => <button type="button" aria-label={`Remove ${p.name}`} disabled={remove.isPending} onClick={() => remove.mutate(p.id)} className={secondaryButton}>Remove</button>,
    }] : []),
  ];
  return (
    <div className="mb-6">
      <h3 className="mb-2 font-medium">Products in this collection</h3>
      <ErrorAlert error={remove.error} />
      <DataTable label="Products in collection" columns={columns} rows={products.data?.products} rowKey={(p) => p.id} rowTestId="collection-product"
        isLoading={products.isLoading} error={products.error} empty="No products in this collection." />
      {products.data && <Pager offset={offset} limit={PAGE_SIZE} count={products.data.products.length} total={products.data.metadata.total} onChange={setOffset} />}
    </div>
  );
}

function AddProducts({ collectionId }: { collectionId: string }) {
  const api = useApi();
  const invalidate = useInvalidateCatalog();
  const [search, setSearch] = useState('');
  const term = useDebounced(search);
  const candidates = useQuery({
    queryKey: ['collection-products', collectionId, 'out', term],
    queryFn: () => queryProducts(api, { search: term, excludeCollectionId: collectionId, offset: 0, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const add = useMutation({ mutationFn: (id: string) => addToCollection(api, collectionId, [id]), onSuccess: invalidate });
  const columns: Column<Product>[] = [
    { header: 'Product', cell: (p) => p.name },
    { header: 'Actions', cell: (p) => <button type="button" aria-label={`Add ${p.name}`} disabled={add.isPending} onClick={() => add.mutate(p.id)} className={secondaryButton}>Add</button> },
  ];
  return (
    <div>
      <h3 className="mb-2 font-medium">Add products</h3>
      <TextField label="Find products to add" value={search} onChange={(e) => setSearch(e.target.value)} className="mb-2" />
      <ErrorAlert error={add.error} />
      <DataTable label="Products to add" columns={columns} rows={candidates.data?.products} rowKey={(p) => p.id} rowTestId="candidate-product"
        isLoading={candidates.isLoading} error={candidates.error} empty="No other product matches." />
    </div>
  );
}
