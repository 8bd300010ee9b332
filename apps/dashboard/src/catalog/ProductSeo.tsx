import { useState } from 'react';
import { useUpdateProduct } from '@vitrine/react';
import { PRODUCT_TEXT_MAX, seoFields, seoTags, type Product } from '../lib/catalog';
import { TextField } from '../components/Form';
import { EditorForm, EditorSection } from './Section';

/** Search-engine title and description (the product's SEO tags; other tags it carries are kept). */
export function ProductSeo({ product }: { product: Product }) {
  const initial = seoFields(product);
  const [title, setTitle] = useState(initial.title);
  const [description, setDescription] = useState(initial.description);
  const save = useUpdateProduct();
  const submit = () => save.mutate({ _id: product._id, product: { seoData: { tags: seoTags(product.seoData?.tags ?? [], { title, description }) } } });
  return (
    <EditorSection id="seo-heading" title="Search engines (SEO)">
      <EditorForm label="SEO" onSubmit={submit} state={save} saveLabel="Save SEO" saved="SEO saved.">
        <TextField label="SEO title" maxLength={PRODUCT_TEXT_MAX.seoTitle} placeholder={product.name} value={title} onChange={(e) => setTitle(e.target.value)} />
        <label className="block text-sm">SEO description
          <textarea value={description} maxLength={PRODUCT_TEXT_MAX.seoDescription} rows={2} onChange={(e) => setDescription(e.target.value)} className="mt-1 block w-full rounded border border-slate-300 px-3 py-1.5 text-sm" />
        </label>
        <p className="text-xs text-slate-600">Address in the store: /product-page/{product.slug}</p>
      </EditorForm>
    </EditorSection>
  );
}
