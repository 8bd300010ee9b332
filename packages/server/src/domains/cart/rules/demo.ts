import type { RequestContext } from '../../../http/context.js';
import { STORES_APP_ID } from '../model.js';
import { createCoupon } from './coupons.js';
import { createDiscountRule } from './discount-rules.js';
import { updateTaxSettings } from './settings.js';
import { createShippingRegion } from './shipping.js';
import { createTaxRegion, setManualRates } from './tax-regions.js';

/**
 * The demo store's pricing setup, so a first start prices carts end to end: US sales tax, US shipping
 * (standard free over 50, express, pickup), an international flat rate, coupon WELCOME10 and an
 * automatic 5% off orders of 100 or more. Goes through the services, so it obeys every owner rule.
 */
export async function seedDemoPricing(ctx: RequestContext): Promise<void> {
  const businessAddress = { country: 'US', subdivision: 'US-NY', city: 'New York', postalCode: '10001', addressLine1: '1 Demo Street' };
  await updateTaxSettings(ctx, { taxableAddressType: 'SHIPPING', taxShipping: true, businessAddress });
  const us = await createTaxRegion(ctx, { country: 'US', taxIncludedInPrice: false });
  await setManualRates(ctx, us.id, [{ taxRate: '0.08', taxName: 'Sales tax', jurisdiction: 'US', jurisdictionType: 'COUNTRY' }]);

  await createShippingRegion(ctx, {
    name: 'United States',
    destinations: [{ country: 'US' }],
    options: [
      { code: 'standard', title: 'Standard', rate: { type: 'FLAT', price: '5.00' }, freeOver: '50.00', deliveryWindow: { fromHours: 72, toHours: 120 } },
      { code: 'express', title: 'Express', rate: { type: 'FLAT', price: '15.00' }, deliveryWindow: { fromHours: 24, toHours: 48 } },
      { code: 'pickup', title: 'Store pickup', rate: { type: 'FREE' }, pickup: { address: businessAddress, pickupMethod: 'STORE_PICKUP', instructions: 'Ask at the counter.' } },
    ],
  });
  await createShippingRegion(ctx, {
    name: 'International',
    destinations: [{ country: 'CA' }, { country: 'GB' }, { country: 'DE' }, { country: 'FR' }],
    options: [{ code: 'international', title: 'International', rate: { type: 'FLAT', price: '20.00' }, deliveryWindow: { fromHours: 120, toHours: 336 } }],
  });

  await createCoupon(ctx, { name: 'Welcome 10% off', code: 'WELCOME10', startTime: '2024-01-01T00:00:00.000Z', percentOffRate: 10 });
  await createDiscountRule(ctx, {
    name: '5% off orders of 100 or more',
    active: true,
    trigger: { triggerType: 'SUBTOTAL_RANGE', subtotalRange: { from: '100' } },
    discounts: { values: [{ targetType: 'SPECIFIC_ITEMS', specificItemsInfo: { scopes: [{ type: 'CATALOG_ITEM', catalogItemFilter: { catalogAppId: STORES_APP_ID } }] }, discountType: 'PERCENTAGE', percentage: 5 }] },
  });
}
