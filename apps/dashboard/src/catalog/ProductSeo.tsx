import { useState } from 'react';
import { useUpdateProduct, useUpdateProductV3 } from '@vitrine/react';
import { PRODUCT_TEXT_MAX, seoFields, seoTags, type Product, type ProductV3, type SeoTag } from '../lib/catalog';
import { TextField } from '../components/Form';
import { EditorForm, EditorSection } from './Section';

interface SeoSaveState { isPending: boolean; isSuccess: boolean; error: unknown; reset: () => void }

/** Search-engine title and description of either catalog's product (other tags it carries are kept). */
function SeoSection({ product, save, state }: { product: { name: string; slug: string; seoData?: { tags: SeoTag[] } | undefined }; save: (tags: SeoTag[]) => void; state: SeoSaveState }) {
  const initial = seoFields(product);
  const [title, setTitle] = useState(initial.title);
  const [description, setDescription] = useState(initial.description);
  return (
    <EditorSection id="seo-heading" title="Search engines (SEO)">
      <EditorForm label="SEO" onSubmit={() => save(seoTags(product.seoData?.tags ?? [], { title, description }))} state={state} saveLabel="Save SEO" saved="SEO saved.">
        <TextField label="SEO title" maxLength={PRODUCT_TEXT_MAX.seoTitle} placeholder={product.name} value={title} onChange={(e) => setTitle(e.target.value)} />
        <label className="block text-sm">SEO description
          <textarea value={description} maxLength={PRODUCT_TEXT_MAX.seoDescription} rows={2} onChange={(e) => setDescription(e.target.value)} className="mt-1 block w-full rounded border border-slate-300 px-3 py-1.5 text-sm" />
        </label>
        <p className="text-xs text-slate-600">Address in the store: /product-page/{product.slug}</p>
      </EditorForm>
    </EditorSection>
  );
}

/** SEO of a V1 product. */
export function ProductSeo({ product }: { product: Product }) {
  const save = useUpdateProduct();
  return <SeoSection product={product} state={save} save={(tags) => save.mutate({ _id: product._id, product: { seoData: { tags } } })} />;
}

/** SEO of a V3 product, saved with the revision the page last read. */
export function ProductSeoV3({ product }: { product: ProductV3 }) {
  const save = useUpdateProductV3();
  return <SeoSection product={product} state={save} save={(tags) => save.mutate({ _id: product._id, product: { revision: product.revision, seoData: tags.length ? { tags } : null } })} />;
}
