/**
 * Manual-rate tax. One tax region applies to the whole cart (the one matching the taxable address); a
 * line is taxed at its tax group's mappings in that region, or at the region's default mappings. Tax is
 * computed once per taxed amount on the sum of its rates and then split over the rates (largest
 * remainder), so the parts always add up to the rounded total.
 */
import { PricingInputError } from './errors.js';
import { allocate, applyRate, formatMoney, formatRate, includedPart, parseRate, sum, type Currency, type RoundingMode } from './money.js';
import type { ItemTaxFullDetails, JurisdictionType, ManualTaxMappingInput, PricingAddress, TaxRegionInput } from './model.js';

export const MAX_TAX_REGIONS = 500;
export const MAX_TAX_MAPPINGS = 2000;

export interface TaxComponent { mapping: ManualTaxMappingInput; rate: bigint }

const JURISDICTION_ORDER: Record<JurisdictionType, number> = { COUNTRY: 0, STATE: 1, COUNTY: 2, CITY: 3, SPECIAL: 4, UNDEFINED: 5 };

const upper = (s: string | null | undefined) => (s ?? '').trim().toUpperCase();

/** The region for an address: same country and subdivision first, then the country-wide region. */
export function findTaxRegion(regions: readonly TaxRegionInput[], address: PricingAddress | null | undefined): TaxRegionInput | null {
  const country = upper(address?.country);
  if (!country) return null;
  const subdivision = upper(address?.subdivision);
  const inCountry = regions.filter((r) => upper(r.country) === country).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return (subdivision && inCountry.find((r) => upper(r.subdivision) === subdivision)) || inCountry.find((r) => !upper(r.subdivision)) || null;
}

/** The rates of one tax group in a region, in a stable order (country before state before county...). */
export class TaxRates {
  private readonly byGroup = new Map<string | null, TaxComponent[]>();

  constructor(readonly region: TaxRegionInput | null, mappings: readonly ManualTaxMappingInput[]) {
    if (mappings.length > MAX_TAX_MAPPINGS) throw new PricingInputError('tax.manualTaxMappings', `must have at most ${MAX_TAX_MAPPINGS} mappings`, 'MAX_SIZE');
    mappings.forEach((mapping, i) => {
      const rate = parseRate(mapping.taxRate, `tax.manualTaxMappings[${i}].taxRate`);
      if (rate > 1_000_000n) throw new PricingInputError(`tax.manualTaxMappings[${i}].taxRate`, 'must be at most 1', 'DECIMAL_LTE');
      if (!region || mapping.taxRegionId !== region.id) return;
      const list = this.byGroup.get(mapping.taxGroupId) ?? [];
      list.push({ mapping, rate });
      this.byGroup.set(mapping.taxGroupId, list);
    });
    for (const list of this.byGroup.values()) list.sort(componentOrder);
  }

  get included(): boolean { return this.region?.taxIncludedInPrice ?? false; }

  /** Whether the region has any manual rate at all. */
  get hasAny(): boolean { return this.byGroup.size > 0; }

  componentsFor(taxGroupId: string | null): TaxComponent[] {
    return (taxGroupId !== null ? this.byGroup.get(taxGroupId) : undefined) ?? this.byGroup.get(null) ?? [];
  }
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Region default rates before group rates, then country, state, county, city, special; then by name and id. */
function componentOrder(a: TaxComponent, b: TaxComponent): number {
  const x = a.mapping;
  const y = b.mapping;
  return (x.taxGroupId === null ? 0 : 1) - (y.taxGroupId === null ? 0 : 1) || cmp(x.taxGroupId ?? '', y.taxGroupId ?? '')
    || JURISDICTION_ORDER[x.jurisdictionType] - JURISDICTION_ORDER[y.jurisdictionType]
    || cmp(x.jurisdiction, y.jurisdiction) || cmp(x.taxName, y.taxName) || cmp(x.id, y.id);
}

/** The tax on one amount at some rates: the taxable base, the total rate, the tax and each rate's part. */
export interface TaxedAmount { taxable: bigint; rate: bigint; tax: bigint; parts: TaxPart[] }
export interface TaxPart { component: TaxComponent; taxable: bigint; tax: bigint }

/** `amount` is net of tax unless `included`, in which case the tax is taken out of it. */
export function taxAmount(amount: bigint, components: readonly TaxComponent[], included: boolean, mode: RoundingMode): TaxedAmount {
  if (components.length === 0) return { taxable: amount, rate: 0n, tax: 0n, parts: [] };
  const rate = sum(components.map((c) => c.rate));
  const tax = rate === 0n ? 0n : included ? includedPart(amount, rate, mode) : applyRate(amount, rate, mode);
  const taxable = included ? amount - tax : amount;
  // One rate takes the whole tax; several split it by their rates.
  const split = components.length === 1 ? null : allocate(tax, components.map((c) => ({ key: c.mapping.id, weight: c.rate })));
  return { taxable, rate, tax, parts: components.map((component) => ({ component, taxable, tax: split ? split.get(component.mapping.id) ?? 0n : tax })) };
}

/**
 * Adds taxed amounts together (shipping spread over lines taxed at different rates becomes one detail).
 * The rate is the common rate when all pieces share it, otherwise the effective rate (tax / taxable,
 * truncated to 6 decimals), which is informative only: the amounts are exact.
 */
export function combine(amounts: readonly TaxedAmount[]): TaxedAmount {
  const parts = new Map<string, TaxPart>();
  for (const a of amounts) for (const p of a.parts) {
    const seen = parts.get(p.component.mapping.id);
    parts.set(p.component.mapping.id, { component: p.component, taxable: (seen?.taxable ?? 0n) + p.taxable, tax: (seen?.tax ?? 0n) + p.tax });
  }
  const taxable = sum(amounts.map((a) => a.taxable));
  const tax = sum(amounts.map((a) => a.tax));
  const rates = new Set(amounts.map((a) => a.rate));
  const [only] = rates;
  const rate = rates.size === 1 && only !== undefined ? only : taxable === 0n ? 0n : (tax * 1_000_000n) / taxable;
  return { taxable, rate, tax, parts: [...parts.values()].sort((a, b) => componentOrder(a.component, b.component)) };
}

export function taxDetails(t: TaxedAmount, currency: Currency): ItemTaxFullDetails {
  const money = (v: bigint) => ({ amount: formatMoney(v, currency) });
  return {
    taxableAmount: money(t.taxable),
    taxRate: formatRate(t.rate),
    totalTax: money(t.tax),
    rateBreakdown: t.parts.map((p) => ({ name: p.component.mapping.taxName, rate: formatRate(p.component.rate), tax: money(p.tax) })),
    taxBreakdown: t.parts.map((p) => ({
      jurisdiction: p.component.mapping.jurisdiction,
      jurisdictionType: p.component.mapping.jurisdictionType,
      taxName: p.component.mapping.taxName,
      taxType: p.component.mapping.taxType ?? null,
      rate: formatRate(p.component.rate),
      taxableAmount: money(p.taxable),
      taxAmount: money(p.tax),
    })),
  };
}
