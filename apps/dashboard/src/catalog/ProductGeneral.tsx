import { useState } from 'react';
import { useUpdateProduct } from '@vitrine/react';
import { PRODUCT_TEXT_MAX, type DiscountType, type Product } from '../lib/catalog';
import { CheckboxField, TextField } from '../components/Form';
import { EditorForm, EditorSection } from './Section';
import { BrandRibbonFields, DescriptionField, DiscountFields, StockFields, stockPatch, type StockDraft } from './ProductFields';

/** Name, description, SKU, price and discount, visibility, brand, ribbon and (without variants) stock. */
export function ProductGeneral({ product }: { product: Product }) {
  const [name, setName] = useState(product.name);
  const [description, setDescription] = useState(product.description);
  const [sku, setSku] = useState(product.sku ?? '');
  const [price, setPrice] = useState(String(product.priceData.price));
  const [discountType, setDiscountType] = useState<DiscountType>(product.discount?.type ?? 'NONE');
  const [discountValue, setDiscountValue] = useState(String(product.discount?.value ?? 0));
  const [visible, setVisible] = useState(product.visible);
  const [brand, setBrand] = useState(product.brand ?? '');
  const [ribbon, setRibbon] = useState(product.ribbon ?? '');
  const [stock, setStock] = useState<StockDraft>({ track: product.stock.trackInventory, quantity: String(product.stock.quantity ?? 0), inStock: product.stock.inStock });
  const save = useUpdateProduct();
  const submit = () => save.mutate({ _id: product._id, product: {
    name, description,
    // An unchanged SKU is not sent, so an empty one never reaches the server's uniqueness check.
    ...(sku.trim() !== (product.sku ?? '') ? { sku: sku.trim() } : {}),
    priceData: { price: Number(price) },
    discount: { type: discountType, value: discountType === 'NONE' ? 0 : Number(discountValue) },
    visible,
    // An empty brand or ribbon removes it (null on the wire).
    brand: brand.trim() || null,
    ribbon: ribbon.trim() || null,
    // With managed variants stock is set per variant; a product-level quantity would apply to each one.
    ...(product.manageVariants ? {} : { stock: stockPatch(stock) }),
  } });
  return (
    <EditorSection id="general-heading" title="General">
      <EditorForm label="General" onSubmit={submit} state={save} saveLabel="Save general" saved="Saved.">
        <TextField label="Product name" required maxLength={PRODUCT_TEXT_MAX.name} value={name} onChange={(e) => setName(e.target.value)} />
        <DescriptionField value={description} onChange={setDescription} />
        <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
          <TextField label="SKU" maxLength={PRODUCT_TEXT_MAX.sku} value={sku} onChange={(e) => setSku(e.target.value)} />
          <TextField label="Regular price" required type="number" min="0" step="0.01" value={price} onChange={(e) => setPrice(e.target.value)} />
          <DiscountFields type={discountType} value={discountValue} onType={setDiscountType} onValue={setDiscountValue} />
        </div>
        <BrandRibbonFields brand={brand} ribbon={ribbon} onBrand={setBrand} onRibbon={setRibbon} />
        <CheckboxField label="Visible in the store" checked={visible} onChange={(e) => setVisible(e.target.checked)} />
        {!product.manageVariants && <StockFields stock={stock} onChange={setStock} />}
      </EditorForm>
    </EditorSection>
  );
}
