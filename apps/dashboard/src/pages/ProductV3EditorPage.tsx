import { Link, useNavigate, useParams } from 'react-router';
import { useDeleteProductV3, useProductV3 } from '@vitrine/react';
import { variantV3Label } from '../lib/catalog';
import { ErrorAlert } from '../components/Alert';
import { EditorHeader } from '../catalog/EditorHeader';
import { formatDate } from '../components/Form';
import { StockByLocation } from '../catalog/StockByLocation';
import { GeneralV3 } from '../catalog/v3/GeneralV3';
import { MediaV3 } from '../catalog/v3/MediaV3';
import { VariantsV3 } from '../catalog/v3/VariantsV3';
import { OptionsV3 } from '../catalog/v3/OptionsV3';
import { InfoSectionsV3 } from '../catalog/v3/InfoSectionsV3';
import { ProductSeoV3 } from '../catalog/ProductSeo';

/**
 * The editor of a V3 product (`/products-v3/:productId`). Each card saves on its own with the
 * revision of the product as last read (the page refetches it after every save), so a change made
 * elsewhere meanwhile is refused with the server's message instead of being written over.
 */
export function ProductV3EditorPage() {
  const { productId = '' } = useParams();
  const product = useProductV3(productId);
  const remove = useDeleteProductV3();
  const navigate = useNavigate();
  const p = product.data;
  return (
    <section>
      <p className="mb-2 text-sm"><Link to="/products-v3" className="text-slate-600 hover:underline">← Products (V3 catalog)</Link></p>
      {product.isLoading && <p role="status" className="text-sm text-slate-600">Loading…</p>}
      <ErrorAlert error={product.error} />
      {p && (
        <>
          <EditorHeader name={p.name} summary={`${p.actualPriceRange.minValue.formattedAmount} · ${p.inventory.availabilityStatus} · ${p.visible ? 'visible' : 'hidden'} · updated ${formatDate(p._updatedDate)}`} deleteMessage={`Delete “${p.name}”? Its stock at every location goes with it. This cannot be undone.`}
            onDelete={async () => { await remove.mutateAsync(p._id); void navigate('/products-v3'); }} />
          <div className="grid max-w-5xl gap-6">
            <GeneralV3 key={`general-${p._id}`} product={p} />
            <MediaV3 product={p} />
            <OptionsV3 key={`options-${p._id}`} product={p} />
            {/* Keyed by the variant ids too: an options save changes the list, and the rows restart from it. */}
            <VariantsV3 key={`variants-${p._id}-${p.variantsInfo.variants.map((v) => v._id).join(',')}`} product={p} />
            <StockByLocation productId={p._id} variantLabels={Object.fromEntries(p.variantsInfo.variants.map((v) => [v._id, variantV3Label(v)]))} />
            <InfoSectionsV3 key={`info-${p._id}`} product={p} />
            <ProductSeoV3 key={`seo-${p._id}`} product={p} />
          </div>
        </>
      )}
    </section>
  );
}
