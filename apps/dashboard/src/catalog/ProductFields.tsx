import { PRODUCT_TEXT_MAX, type DiscountType } from '../lib/catalog';
import { CheckboxField, SelectField, TextField } from '../components/Form';

/** The product description (plain text in both catalogs). */
export function DescriptionField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <label className="block text-sm">Description
      <textarea value={value} maxLength={PRODUCT_TEXT_MAX.description} rows={4} onChange={(e) => onChange(e.target.value)} className="mt-1 block w-full rounded border border-slate-300 px-3 py-1.5 text-sm" />
    </label>
  );
}

/** Brand and ribbon by name (empty removes them). */
export function BrandRibbonFields({ brand, ribbon, onBrand, onRibbon }: { brand: string; ribbon: string; onBrand: (v: string) => void; onRibbon: (v: string) => void }) {
  return (
    <div className="grid grid-cols-2 gap-3">
      <TextField label="Brand" maxLength={PRODUCT_TEXT_MAX.brand} value={brand} onChange={(e) => onBrand(e.target.value)} />
      <TextField label="Ribbon" maxLength={PRODUCT_TEXT_MAX.ribbon} placeholder="New, Sale…" value={ribbon} onChange={(e) => onRibbon(e.target.value)} />
    </div>
  );
}

/** Discount type and (unless none) its value: an amount off or a percent off the regular price. */
export function DiscountFields({ type, value, onType, onValue }: { type: DiscountType; value: string; onType: (t: DiscountType) => void; onValue: (v: string) => void }) {
  return (
    <>
      <SelectField label="Discount type" value={type} onChange={(e) => onType(e.target.value as DiscountType)}>
        <option value="NONE">None</option>
        <option value="AMOUNT">Amount off</option>
        <option value="PERCENT">Percent off</option>
      </SelectField>
      {type !== 'NONE' && <TextField label="Discount value" type="number" min="0" step="0.01" value={value} onChange={(e) => onValue(e.target.value)} />}
    </>
  );
}

export interface StockDraft { track: boolean; quantity: string; inStock: boolean }

/** Stock of a product without managed variants: a tracked quantity, or an in-stock flag. */
export function StockFields({ stock, onChange }: { stock: StockDraft; onChange: (s: StockDraft) => void }) {
  return (
    <>
      <CheckboxField label="Track quantity" checked={stock.track} onChange={(e) => onChange({ ...stock, track: e.target.checked })} />
      {stock.track
        ? <TextField label="Quantity in stock" type="number" min="0" step="1" value={stock.quantity} onChange={(e) => onChange({ ...stock, quantity: e.target.value })} />
        : <CheckboxField label="In stock" checked={stock.inStock} onChange={(e) => onChange({ ...stock, inStock: e.target.checked })} />}
    </>
  );
}

/** The V1 `stock` patch of a stock draft. */
export function stockPatch(s: StockDraft): { trackInventory: boolean; quantity?: number; inStock?: boolean } {
  return s.track ? { trackInventory: true, quantity: Number(s.quantity) } : { trackInventory: false, inStock: s.inStock };
}
