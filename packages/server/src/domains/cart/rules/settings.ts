import type { RequestContext } from '../../../http/context.js';
import { inTransaction } from '../../../storage/transaction.js';
import { recordEvent } from '../../events/index.js';
import { DEFAULT_ROUNDING_MODE } from '../pricing/index.js';
import { DEFAULT_CHECKOUT_SETTINGS } from './checkout-defaults.js';
import { CHECKOUT_SETTINGS_FQDN } from './events.js';
import { DEFAULT_PRICING_SETTINGS, type CheckoutSettingsInput, type PricingSettings, type SiteSettingsRecord, type StoredCheckoutSettings, type TaxSettings } from './model.js';
import { presentCheckoutSettings } from './present.js';
import { findSiteSettings, lockSiteSettings, updateSiteSettingsRow } from './store.js';

/**
 * The per-site settings row: checkout settings (ecom.checkoutSettings) and the tax settings extension
 * (`/billing/v1/tax-settings`). Updates merge the given fields into the stored ones at every depth,
 * under a row lock.
 */

const DEFAULTS = { checkout: DEFAULT_CHECKOUT_SETTINGS, pricing: DEFAULT_PRICING_SETTINGS };

export async function readSiteSettings(ctx: RequestContext): Promise<SiteSettingsRecord> {
  return (await findSiteSettings(ctx.db, ctx.site.id)) ?? { ...DEFAULTS, createdDate: null, updatedDate: null };
}

const isPlain = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Merges at every depth: `{checkoutBrand: {header: {text}}}` keeps the header's other fields and the other groups. */
function deepMerge<T extends object>(current: T, patch: object): T {
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(current));
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    const cur = out[k];
    out[k] = isPlain(v) && isPlain(cur) ? deepMerge(cur, v) : v;
  }
  return out as T;
}

export async function updateCheckoutSettings(ctx: RequestContext, patch: CheckoutSettingsInput) {
  return inTransaction(ctx.db, async (trx) => {
    const now = new Date().toISOString();
    const current = await lockSiteSettings(trx, ctx.dialect, ctx.site.id, DEFAULTS, now);
    const checkout: StoredCheckoutSettings = deepMerge(current.checkout, patch);
    await updateSiteSettingsRow(trx, ctx.site.id, { checkout, pricing: current.pricing }, now);
    const answer = presentCheckoutSettings(checkout, { createdDate: current.createdDate, updatedDate: now });
    await recordEvent({ ...ctx, db: trx }, { entityFqdn: CHECKOUT_SETTINGS_FQDN, slug: 'updated', entityId: ctx.site.id, entity: answer });
    return answer;
  });
}

export async function updateTaxSettings(ctx: RequestContext, patch: Partial<TaxSettings>): Promise<PricingSettings> {
  return inTransaction(ctx.db, async (trx) => {
    const now = new Date().toISOString();
    const current = await lockSiteSettings(trx, ctx.dialect, ctx.site.id, DEFAULTS, now);
    const pricing: PricingSettings = {
      taxableAddressType: patch.taxableAddressType ?? current.pricing.taxableAddressType,
      taxShipping: patch.taxShipping ?? current.pricing.taxShipping,
      businessAddress: patch.businessAddress === undefined ? current.pricing.businessAddress : patch.businessAddress,
      roundingMode: patch.roundingMode ?? current.pricing.roundingMode ?? DEFAULT_ROUNDING_MODE,
    };
    await updateSiteSettingsRow(trx, ctx.site.id, { checkout: current.checkout, pricing }, now);
    return pricing;
  });
}
