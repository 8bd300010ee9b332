import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useProduct, useUpdateProduct } from '@vitrine/react';
import type { Collection, DiscountType, Product } from '../lib/catalog';
import { ErrorAlert, Notice } from '../components/Alert';
import { Drawer } from '../components/Modal';
import { VariantStock } from './VariantStock';
import { VariantPrices } from './VariantPrices';
import { ProductMedia } from './ProductMedia';
import { CheckboxField, TextField, formatDate, primaryButton, clearsOutcome } from '../components/Form';
import { DiscountFields, StockFields, stockPatch, type StockDraft } from '../catalog/ProductFields';

/** Product detail with the edit form (name, price, discount, visibility, stock). */
export function ProductDrawer({ id, collections, onClose }: { id: string; collections: Collection[]; onClose: () => void }) {
  const product = useProduct(id);
  return (
    <Drawer title={product.data?.name ?? 'Product'} onClose={onClose}>
      {product.isLoading && <p role="status" className="text-sm text-slate-500">Loading…</p>}
      <ErrorAlert error={product.error} />
      {product.data && <p className="mb-4 text-sm"><Link to={`/products/${encodeURIComponent(product.data._id)}`} className="underline">Open the full editor</Link> (options, images order, stock by location, collections, info sections, SEO)</p>}
      {product.data && <ProductDetail product={product.data} collections={collections} />}
      {product.data && <ProductMedia product={product.data} />}
      {/* Keys differ per form: siblings sharing one key were duplicated by React after a refetch. */}
      {product.data && <EditProduct key={`edit-${product.data._id}`} product={product.data} />}
      {product.data?.manageVariants && <VariantPrices key={`prices-${product.data._id}`} product={product.data} />}
      {product.data?.manageVariants && <VariantStock key={`stock-${product.data._id}`} product={product.data} />}
    </Drawer>
  );
}

function ProductDetail({ product, collections }: { product: Product; collections: Collection[] }) {
  const names = product.collectionIds.map((cid) => collections.find((c) => c._id === cid)?.name ?? cid);
  const image = product.media?.mainMedia?.image?.url;
  return (
    <dl data-testid="product-detail" className="mb-6 grid grid-cols-[8rem_1fr] gap-x-4 gap-y-1 text-sm">
      {image && <dd className="col-span-2 mb-2"><img src={image} alt="" className="h-24 w-24 rounded object-cover" /></dd>}
      <dt className="text-slate-500">Slug</dt><dd>{product.slug}</dd>
      <dt className="text-slate-500">SKU</dt><dd className="font-mono text-xs">{product.sku || '—'}</dd>
      <dt className="text-slate-500">Price</dt><dd>{product.priceData.formatted.price}</dd>
      <dt className="text-slate-500">Sale price</dt><dd>{product.priceData.formatted.discountedPrice}</dd>
      <dt className="text-slate-500">Stock</dt><dd>{product.stock.inventoryStatus}{product.stock.quantity !== undefined ? ` (${product.stock.quantity})` : ''}</dd>
      <dt className="text-slate-500">Collections</dt><dd>{names.join(', ') || '—'}</dd>
      <dt className="text-slate-500">Variants</dt><dd>{product.variants?.length ?? 0}</dd>
      <dt className="text-slate-500">Updated</dt><dd>{formatDate(product.lastUpdated)}</dd>
      {product.description && <><dt className="text-slate-500">Description</dt><dd className="whitespace-pre-line">{product.description}</dd></>}
    </dl>
  );
}

function EditProduct({ product }: { product: Product }) {
  const [name, setName] = useState(product.name);
  const [price, setPrice] = useState(String(product.priceData.price));
  const [discountType, setDiscountType] = useState<DiscountType>(product.discount?.type ?? 'NONE');
  const [discountValue, setDiscountValue] = useState(String(product.discount?.value ?? 0));
  const [visible, setVisible] = useState(product.visible);
  const [stock, setStock] = useState<StockDraft>({ track: product.stock.trackInventory, quantity: String(product.stock.quantity ?? 0), inStock: product.stock.inStock });
  const save = useUpdateProduct();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ _id: product._id, product: {
      name,
      priceData: { price: Number(price) },
      discount: { type: discountType, value: discountType === 'NONE' ? 0 : Number(discountValue) },
      visible,
      // With managed variants stock is set per variant (VariantStock); a product-level quantity would apply to each variant.
      ...(product.manageVariants ? {} : { stock: stockPatch(stock) }),
    } });
  };
  return (
    <form onSubmit={submit} {...clearsOutcome(save)} aria-label="Edit product" className="space-y-3 border-t border-slate-200 pt-4">
      <h3 className="font-medium">Edit</h3>
      <TextField label="Product name" required maxLength={80} value={name} onChange={(e) => setName(e.target.value)} />
      <TextField label="Regular price" required type="number" min="0" step="0.01" value={price} onChange={(e) => setPrice(e.target.value)} />
      <div className="flex gap-3">
        <DiscountFields type={discountType} value={discountValue} onType={setDiscountType} onValue={setDiscountValue} />
      </div>
      <CheckboxField label="Visible in the store" checked={visible} onChange={(e) => setVisible(e.target.checked)} />
      {!product.manageVariants && <StockFields stock={stock} onChange={setStock} />}
      <ErrorAlert error={save.error} />
      {save.isSuccess && <Notice>Saved.</Notice>}
      <button disabled={save.isPending} className={primaryButton}>Save changes</button>
    </form>
  );
}
