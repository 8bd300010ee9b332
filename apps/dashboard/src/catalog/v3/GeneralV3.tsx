import { useState } from 'react';
import { useUpdateProductV3 } from '@vitrine/react';
import { PRODUCT_TEXT_MAX, type ProductV3 } from '../../lib/catalog';
import { CheckboxField, TextField } from '../../components/Form';
import { EditorForm, EditorSection } from '../Section';
import { BrandRibbonFields, DescriptionField } from '../ProductFields';

/** Name, description, visibility, brand and ribbon of a V3 product (a new brand or ribbon name creates it). */
export function GeneralV3({ product }: { product: ProductV3 }) {
  const [name, setName] = useState(product.name);
  const [description, setDescription] = useState(product.plainDescription);
  const [visible, setVisible] = useState(product.visible);
  const [brand, setBrand] = useState(product.brand?.name ?? '');
  const [ribbon, setRibbon] = useState(product.ribbon?.name ?? '');
  const save = useUpdateProductV3();
  const submit = () => save.mutate({ _id: product._id, product: {
    revision: product.revision, name, plainDescription: description, visible,
    brand: brand.trim() ? { name: brand.trim() } : null,
    ribbon: ribbon.trim() ? { name: ribbon.trim() } : null,
  } });
  return (
    <EditorSection id="general-heading" title="General">
      <EditorForm label="General" onSubmit={submit} state={save} saveLabel="Save general" saved="Saved.">
        <TextField label="Product name" required maxLength={PRODUCT_TEXT_MAX.name} value={name} onChange={(e) => setName(e.target.value)} />
        <DescriptionField value={description} onChange={setDescription} />
        <BrandRibbonFields brand={brand} ribbon={ribbon} onBrand={setBrand} onRibbon={setRibbon} />
        <CheckboxField label="Visible in the store" checked={visible} onChange={(e) => setVisible(e.target.checked)} />
      </EditorForm>
    </EditorSection>
  );
}
