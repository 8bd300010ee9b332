/**
 * Checkout settings (`@vitrine/sdk/ecom` -> `checkoutSettings`), after the public ecom module. Reading
 * is open to visitors (the checkout page shows policies and texts); updating is elevated.
 */
import type * as wire from '@vitrine/types/ecom-rules';
import { defineMethod } from '../../define.js';
import type { FromWire } from '../../wire-types.js';

export type CheckoutSettings = FromWire<wire.CheckoutSettings>;
const DATES = { dates: ['checkoutSettings.createdDate', 'checkoutSettings.updatedDate'] };

/** `checkoutSettings.getCheckoutSettings()` -> `{ checkoutSettings }`. */
export const getCheckoutSettings = defineMethod((client) =>
  client.request<{ checkoutSettings: CheckoutSettings }>({ method: 'GET', path: '/ecom/v1/checkout-settings', decode: DATES }));

/** `checkoutSettings.updateCheckoutSettings(checkoutSettings)` -> `{ checkoutSettings }` (merged with the stored ones). Elevated. */
export const updateCheckoutSettings = defineMethod((client, checkoutSettings: wire.CheckoutSettingsInput) =>
  client.request<{ checkoutSettings: CheckoutSettings }>({ method: 'PATCH', path: '/ecom/v1/checkout-settings', payload: { checkoutSettings }, decode: DATES }));
