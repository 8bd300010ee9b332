import { useState } from 'react';
import { useProductStockRows, useSetStockRows, type StockRowInput } from '@vitrine/react';
import { inventory } from '@vitrine/sdk/stores';
import { ErrorAlert } from '../components/Alert';
import { TextField, secondaryButton } from '../components/Form';
import { EditorForm, EditorSection } from './Section';

/** A location id as the inventory API takes it (a GUID). */
const LOCATION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function locationName(id: string): string {
  return id === inventory.DEFAULT_LOCATION_ID ? 'Default location' : `Location ${id}`;
}

type Row = StockRowInput & { key: string };

/**
 * Stock of every variant at every location of a V3 product (the V1 catalog keeps one location): one
 * quantity or in-stock flag per row; adding a location gives every variant missing there a row.
 */
export function StockByLocation({ productId, variantLabels }: { productId: string; variantLabels: Record<string, string> }) {
  const stock = useProductStockRows(productId);
  // Held here: the rows below restart from the server after each save, and the save's outcome must outlive them.
  const save = useSetStockRows();
  return (
    <EditorSection id="locations-heading" title="Stock by location">
      {stock.isLoading && <p role="status" className="text-sm text-slate-600">Loading…</p>}
      <ErrorAlert error={stock.error} />
      {stock.data && <StockRows key={stock.dataUpdatedAt} productId={productId} variantLabels={variantLabels} save={save} rows={stock.data.map((r) => ({
        key: `${r.variantId}@${r.locationId}`, productId, variantId: r.variantId, locationId: r.locationId,
        trackQuantity: r.trackQuantity, quantity: r.quantity ?? 0, inStock: r.inStock,
      }))} />}
    </EditorSection>
  );
}

function StockRows({ productId, variantLabels, rows: initial, save }: { productId: string; variantLabels: Record<string, string>; rows: Row[]; save: ReturnType<typeof useSetStockRows> }) {
  const [rows, setRows] = useState(initial);
  const [location, setLocation] = useState('');
  const [locationError, setLocationError] = useState<string>();
  const label = (variantId: string) => variantLabels[variantId] || 'Product';
  const set = (key: string, patch: Partial<Row>) => setRows((list) => list.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const addLocation = () => {
    const id = location.trim().toLowerCase();
    if (!LOCATION_ID.test(id)) { setLocationError('A location id is a GUID such as 3f1c2a4e-0b7d-4c55-9e61-2a8f0c1d9b70.'); return; }
    // Every variant of the product gets a row there: variants added after the location was listed (an options save) too.
    const missing = Object.keys(variantLabels).filter((variantId) => !rows.some((r) => r.variantId === variantId && r.locationId === id));
    if (missing.length === 0) { setLocationError(`${locationName(id)} is already listed for every variant.`); return; }
    setLocationError(undefined);
    setRows((list) => [...list, ...missing.map((variantId) => ({ key: `${variantId}@${id}`, productId, variantId, locationId: id, trackQuantity: true, quantity: 0, inStock: false }))]);
    setLocation('');
  };
  const submit = () => save.mutate(rows.map(({ key: _key, ...r }) => (r.trackQuantity
    ? { productId: r.productId, variantId: r.variantId, locationId: r.locationId, trackQuantity: true, quantity: r.quantity ?? 0 }
    : { productId: r.productId, variantId: r.variantId, locationId: r.locationId, trackQuantity: false, inStock: r.inStock ?? false })));
  return (
    <EditorForm label="Stock by location" onSubmit={submit} state={save} saveLabel="Save stock by location" saved="Stock by location saved.">
      <table className="w-full text-sm">
        <caption className="sr-only">Stock of each variant at each location</caption>
        <thead><tr className="text-left text-slate-600"><th className="py-1 font-normal">Variant</th><th className="font-normal">Location</th><th className="font-normal">Counted</th><th className="font-normal">Units or available</th></tr></thead>
        <tbody>
          {rows.map((r) => {
            // Labels never contain the variant stock form's words ("Quantity of", "In stock:"), so a label search finds one control.
            const name = `${locationName(r.locationId)}: ${label(r.variantId)}`;
            return (
              <tr key={r.key} data-testid="stock-row">
                <td className="py-1">{label(r.variantId)}</td>
                <td>{locationName(r.locationId)}</td>
                <td><input type="checkbox" aria-label={`Counted at ${name}`} checked={r.trackQuantity} onChange={(e) => set(r.key, { trackQuantity: e.target.checked })} /></td>
                <td>{r.trackQuantity
                  ? <input aria-label={`Units at ${name}`} type="number" min="0" step="1" value={r.quantity ?? 0} onChange={(e) => set(r.key, { quantity: Number(e.target.value) })} className="w-24 rounded border border-slate-300 px-2 py-1" />
                  : <input aria-label={`Available at ${name}`} type="checkbox" checked={r.inStock ?? false} onChange={(e) => set(r.key, { inStock: e.target.checked })} />}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="flex flex-wrap items-end gap-2">
        <TextField label="New location id" value={location} onChange={(e) => setLocation(e.target.value)} className="w-96" />
        <button type="button" className={secondaryButton} onClick={addLocation}>Add location</button>
      </div>
      {locationError && <p role="alert" className="text-sm text-rose-800">{locationError}</p>}
    </EditorForm>
  );
}
