import { useState, type FormEvent } from 'react';
import {
  useCreateShippingRegion, useCreateTaxGroup, useCreateTaxRegion, useDeleteShippingRegion, useDeleteTaxGroup, useDeleteTaxRegion, useShippingRegions,
  useTaxGroups, useTaxRegions,
} from '@vitrine/react';
import type { shippingRegions, taxGroups, taxRegions } from '@vitrine/sdk/ecom';
import { ErrorAlert } from '../components/Alert';
import { ConfirmButton } from '../components/ConfirmButton';
import { DataTable, type Column } from '../components/DataTable';
import { CheckboxField, TextField, formatDate, primaryButton } from '../components/Form';
import { amountText, rateFraction } from './money';
import { useLocked } from '../components/useLocked';

/** Shipping regions with their options, tax regions with a rate, and tax groups. */
export function ShippingTaxSettings() {
  return (
    <div className="space-y-10">
      <ShippingRegions />
      <TaxRegions />
      <TaxGroups />
    </div>
  );
}

/** "US, CA" -> ["US", "CA"] (upper case, ISO 3166-1 alpha-2 as typed; the server checks the codes). */
function countryCodes(text: string): string[] {
  return text.split(/[\s,]+/).map((c) => c.trim().toUpperCase()).filter(Boolean);
}

function optionText(o: shippingRegions.ShippingRegion['options'][number]): string {
  const rate = o.rate.type === 'FLAT' ? (o.rate.price ?? '') : o.rate.type.toLowerCase().replace(/_/g, ' ');
  return `${o.title}: ${rate}${o.freeOver ? `, free over ${o.freeOver}` : ''}`;
}

function ShippingRegions() {
  const regions = useShippingRegions();
  const create = useLocked(useCreateShippingRegion());
  const remove = useDeleteShippingRegion();
  const [name, setName] = useState('');
  const [countries, setCountries] = useState('');
  const [title, setTitle] = useState('Standard');
  const [price, setPrice] = useState('');
  const [freeOver, setFreeOver] = useState('');
  const [localError, setLocalError] = useState<string>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setLocalError(undefined);
    const flat = amountText(price);
    if (flat === undefined) { setLocalError('Shipping price: an amount such as 5 or 4.99'); return; }
    const over = freeOver.trim() ? amountText(freeOver) : undefined;
    if (freeOver.trim() && over === undefined) { setLocalError('Free over: an amount such as 50'); return; }
    create.mutate({
      name: name.trim(),
      destinations: countryCodes(countries).map((country) => ({ country })),
      options: [{ code: 'standard', title: title.trim(), rate: { type: 'FLAT', price: flat }, ...(over ? { freeOver: over } : {}) }],
    }, { onSuccess: () => { setName(''); setCountries(''); setPrice(''); setFreeOver(''); } });
  };
  const columns: Column<shippingRegions.ShippingRegion>[] = [
    { header: 'Region', cell: (r) => r.name },
    { header: 'Destinations', cell: (r) => r.destinations.map((d) => (d.subdivisions?.length ? `${d.country} (${d.subdivisions.join(', ')})` : d.country)).join(', ') },
    { header: 'Options', cell: (r) => <ul>{r.options.map((o) => <li key={o.code}>{optionText(o)}</li>)}</ul> },
    {
      header: 'Actions',
      cell: (r) => <ConfirmButton label="Delete" ariaLabel={`Delete shipping region ${r.name}`} title="Delete shipping region" confirmLabel="Delete region"
        message={`Delete the shipping region "${r.name}"? Buyers there get no shipping options until another region covers them.`} onConfirm={() => remove.mutateAsync(r._id)} />,
    },
  ];
  return (
    <section aria-labelledby="shipping" className="space-y-4">
      <h2 id="shipping" className="text-lg font-semibold">Shipping regions</h2>
      <DataTable label="Shipping regions" columns={columns} rows={regions.data} rowKey={(r) => r._id} rowTestId="shipping-region-row" isLoading={regions.isLoading} error={regions.error} empty="No shipping regions: nothing can be shipped." />
      <form onSubmit={submit} aria-label="New shipping region" className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4">
        <TextField label="Region name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        <TextField label="Country codes" required placeholder="US, CA" value={countries} onChange={(e) => setCountries(e.target.value)} className="w-40" />
        <TextField label="Option title" required maxLength={100} value={title} onChange={(e) => setTitle(e.target.value)} />
        <TextField label="Shipping price" required inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} className="w-32" />
        <TextField label="Free over (optional)" inputMode="decimal" value={freeOver} onChange={(e) => setFreeOver(e.target.value)} className="w-40" />
        <button disabled={create.isPending} className={primaryButton}>Add region</button>
        <div className="basis-full">{localError && <p role="alert" className="text-sm text-rose-700">{localError}</p>}<ErrorAlert error={create.error} /></div>
      </form>
    </section>
  );
}

function TaxRegions() {
  const regions = useTaxRegions();
  const create = useLocked(useCreateTaxRegion());
  const remove = useDeleteTaxRegion();
  const [country, setCountry] = useState('');
  const [subdivision, setSubdivision] = useState('');
  const [included, setIncluded] = useState(false);
  const [rate, setRate] = useState('');
  const [localError, setLocalError] = useState<string>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setLocalError(undefined);
    const taxRate = rateFraction(rate);
    if (taxRate === undefined) { setLocalError('Tax rate: a percentage from 0 to 100 with at most 2 decimals, such as 8.25'); return; }
    create.mutate({
      region: { country: country.trim().toUpperCase(), ...(subdivision.trim() ? { subdivision: subdivision.trim().toUpperCase() } : {}), taxIncludedInPrice: included },
      rate: { taxRate, taxName: 'Tax' },
    }, { onSuccess: () => { setCountry(''); setSubdivision(''); setRate(''); setIncluded(false); } });
  };
  const columns: Column<taxRegions.TaxRegion>[] = [
    { header: 'Country', cell: (r) => r.country },
    { header: 'Subdivision', cell: (r) => r.subdivision || 'whole country' },
    { header: 'Prices include tax', cell: (r) => (r.taxIncludedInPrice ? 'yes' : 'no') },
    { header: 'Created', cell: (r) => formatDate(r._createdDate) },
    {
      header: 'Actions',
      cell: (r) => <ConfirmButton label="Delete" ariaLabel={`Delete tax region ${r.country}${r.subdivision ? ` ${r.subdivision}` : ''}`} title="Delete tax region" confirmLabel="Delete region"
        message={`Delete the tax region ${r.subdivision || r.country} and its rates? Carts there are no longer taxed.`} onConfirm={() => remove.mutateAsync(r._id)} />,
    },
  ];
  return (
    <section aria-labelledby="tax-regions" className="space-y-4">
      <h2 id="tax-regions" className="text-lg font-semibold">Tax regions</h2>
      <DataTable label="Tax regions" columns={columns} rows={regions.data} rowKey={(r) => r._id} rowTestId="tax-region-row" isLoading={regions.isLoading} error={regions.error} empty="No tax regions: no tax is charged." />
      <form onSubmit={submit} aria-label="New tax region" className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4">
        <TextField label="Country code" required maxLength={2} placeholder="US" value={country} onChange={(e) => setCountry(e.target.value)} className="w-28" />
        <TextField label="Subdivision (optional)" placeholder="US-NY" value={subdivision} onChange={(e) => setSubdivision(e.target.value)} className="w-40" />
        <TextField label="Tax rate (%)" required inputMode="decimal" value={rate} onChange={(e) => setRate(e.target.value)} className="w-28" />
        <CheckboxField label="Prices include tax" checked={included} onChange={(e) => setIncluded(e.target.checked)} />
        <button disabled={create.isPending} className={primaryButton}>Add tax region</button>
        <div className="basis-full">{localError && <p role="alert" className="text-sm text-rose-700">{localError}</p>}<ErrorAlert error={create.error} /></div>
      </form>
    </section>
  );
}

function TaxGroups() {
  const groups = useTaxGroups();
  const create = useLocked(useCreateTaxGroup());
  const remove = useDeleteTaxGroup();
  const [name, setName] = useState('');
  const columns: Column<taxGroups.TaxGroup>[] = [
    { header: 'Group', cell: (g) => g.name },
    { header: 'Created', cell: (g) => formatDate(g._createdDate ?? null) },
    {
      header: 'Actions',
      cell: (g) => <ConfirmButton label="Delete" ariaLabel={`Delete tax group ${g.name}`} title="Delete tax group" confirmLabel="Delete group"
        message={`Delete the tax group "${g.name}" and its rates in every region?`} onConfirm={() => remove.mutateAsync(g._id)} />,
    },
  ];
  return (
    <section aria-labelledby="tax-groups" className="space-y-4">
      <h2 id="tax-groups" className="text-lg font-semibold">Tax groups</h2>
      <p className="text-sm text-slate-600">Products, Services and Event tickets are built in; add a group for goods taxed at another rate.</p>
      <DataTable label="Tax groups" columns={columns} rows={groups.data} rowKey={(g) => g._id} rowTestId="tax-group-row" isLoading={groups.isLoading} error={groups.error} empty="No groups of your own." />
      <form onSubmit={(e) => { e.preventDefault(); create.mutate(name.trim(), { onSuccess: () => setName('') }); }} aria-label="New tax group" className="flex flex-wrap items-end gap-3">
        <TextField label="Group name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        <button disabled={create.isPending} className={primaryButton}>Add group</button>
        <div className="basis-full"><ErrorAlert error={create.error} /></div>
      </form>
    </section>
  );
}
