import { Link, useNavigate, useParams } from 'react-router';
import { useCollections, useDeleteProduct, useProduct } from '@vitrine/react';
import { CATALOG_PAGE_MAX } from '../lib/catalog';
import { ErrorAlert } from '../components/Alert';
import { EditorHeader } from '../catalog/EditorHeader';
import { formatDate } from '../components/Form';
import { EditorSection } from '../catalog/Section';
import { ProductGeneral } from '../catalog/ProductGeneral';
import { ProductOptions } from '../catalog/ProductOptions';
import { ProductMediaEditor } from '../catalog/ProductMediaEditor';
import { ProductCollections } from '../catalog/ProductCollections';
import { ProductInfoSections } from '../catalog/ProductInfoSections';
import { ProductSeo } from '../catalog/ProductSeo';
import { VariantPrices } from './VariantPrices';
import { VariantStock } from './VariantStock';

/**
 * The product editor (`/products/:productId`): one card per part of the product, each saved on its
 * own so a refused save never loses what the owner typed elsewhere. Forms start from the product as
 * loaded; the variant forms restart when the variants change (after an options save).
 */
export function ProductEditorPage() {
  const { productId = '' } = useParams();
  const product = useProduct(productId);
  const collections = useCollections({ limit: CATALOG_PAGE_MAX });
  const remove = useDeleteProduct();
  const navigate = useNavigate();
  const p = product.data;
  const variantsKey = p ? p.variants.map((v) => v._id).join() : '';
  return (
    <section>
      <p className="mb-2 text-sm"><Link to="/products" className="text-slate-600 hover:underline">← Products</Link></p>
      {product.isLoading && <p role="status" className="text-sm text-slate-600">Loading…</p>}
      <ErrorAlert error={product.error} />
      {p && (
        <>
          <EditorHeader name={p.name} summary={`${p.priceData.formatted.discountedPrice} · ${p.stock.inventoryStatus} · ${p.visible ? 'visible' : 'hidden'} · updated ${formatDate(p.lastUpdated)}`} deleteMessage={`Delete “${p.name}”? It disappears from the store and from every collection. This cannot be undone.`}
            onDelete={async () => { await remove.mutateAsync(p._id); void navigate('/products'); }}>
            <a href={`/product-page/${encodeURIComponent(p.slug)}`} target="_blank" rel="noreferrer" className="text-sm underline">View in store</a>
          </EditorHeader>
          <div className="grid max-w-5xl gap-6">
            <ProductGeneral key={`general-${p._id}`} product={p} />
            <ProductMediaEditor product={p} />
            <ProductOptions key={`options-${p._id}-${variantsKey}`} product={p} />
            {p.manageVariants && (
              <EditorSection id="variants-heading" title="Variants and their stock">
                <VariantPrices key={`prices-${variantsKey}`} product={p} />
                <VariantStock key={`stock-${variantsKey}`} product={p} />
              </EditorSection>
            )}
            <ProductCollections key={`collections-${p._id}`} product={p} collections={collections.data?.items ?? []} />
            <ProductInfoSections key={`info-${p._id}`} product={p} />
            <ProductSeo key={`seo-${p._id}`} product={p} />
          </div>
        </>
      )}
    </section>
  );
}
