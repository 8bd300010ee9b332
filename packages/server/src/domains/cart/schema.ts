/** Request shapes of the current cart and checkout calls, tied to `@vitrine/types/ecom-cart`. */
import { z } from 'zod';
import type {
  AddToCartRequest, CreateCheckoutFromCartRequest, CreateCheckoutRequest, EstimateTotalsRequest, LineItemQuantityInput, UpdateCartRequest, UpdateCheckoutRequest,
} from '@vitrine/types/ecom-cart';
import { conforms } from '../../http/conforms.js';
import { countryCode } from '../../http/iso-codes.js';
import { decimalString, emailAddress, identifier } from '../../http/wire-schemas.js';
import { MAX_ADDITIONAL_FEES, MAX_MERCHANT_DISCOUNTS } from './pricing/index.js';

/** Bounds of carts and checkouts; the engine's own (300 lines, 100,000 units a line) are the outer limit. */
export const CART_LIMITS = {
  /** Lines a cart or checkout holds. */
  lineItems: 300,
  /** Lines added, changed or removed by one call. */
  linesPerCall: 100,
  quantityMax: 100_000,
  couponCode: 50,
  text: 1_000,
  shortText: 200,
  url: 2_000,
  customFields: 20,
  descriptionLines: 20,
  /** Keys of a catalog reference's `options` (variant id, choices, custom text fields). */
  optionKeys: 50,
  merchantDiscounts: MAX_MERCHANT_DISCOUNTS,
  fees: MAX_ADDITIONAL_FEES,
} as const;

const text = (max: number = CART_LIMITS.shortText) => z.string().max(max);
/** A checkout URL the buyer is sent to: http or https only (never `javascript:` or the like). */
const checkoutUrl = text(CART_LIMITS.url).refine((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), 'must be an http or https URL');
const id = identifier(100);
const quantity = z.number().int().min(1).max(CART_LIMITS.quantityMax);

const catalogReference = z.object({
  catalogItemId: identifier(100, 1),
  appId: identifier(100, 1),
  options: z.record(z.string().max(100), z.unknown()).refine((o) => Object.keys(o).length <= CART_LIMITS.optionKeys && JSON.stringify(o).length <= 10_000, {
    message: `must have at most ${CART_LIMITS.optionKeys} keys and 10,000 characters`, params: { rule: 'MAX_SIZE' },
  }).nullish(),
});

const address = z.object({
  country: countryCode.nullish(),
  subdivision: text(20).nullish(),
  city: text().nullish(),
  postalCode: text(40).nullish(),
  streetAddress: z.object({ number: text(40).optional(), name: text().optional() }).nullish(),
  addressLine: text().nullish(),
  addressLine2: text().nullish(),
  countryFullname: text().nullish(),
  subdivisionFullname: text().nullish(),
});
const contactDetails = z.object({ firstName: text().nullish(), lastName: text().nullish(), phone: text(40).nullish(), company: text().nullish() });
const addressWithContact = z.object({ address: address.nullish(), contactDetails: contactDetails.nullish() });
const selectedShippingOption = z.object({ carrierId: id.nullish(), code: text(100) });
const email = emailAddress();

export const lineItemInput = z.object({ id: id.nullish(), quantity: quantity.optional(), catalogReference: catalogReference.optional() });

const translatable = z.object({ original: text(), translated: text().nullish() });
export const customLineItemInput = z.object({
  id: id.nullish(),
  quantity,
  price: decimalString,
  fullPrice: decimalString.nullish(),
  priceDescription: translatable.nullish(),
  productName: translatable,
  descriptionLines: z.array(z.object({ name: z.object({ original: text() }).optional(), plainText: z.object({ original: text() }).optional() })).max(CART_LIMITS.descriptionLines).nullish(),
  media: z.object({ id: text().optional(), url: text(CART_LIMITS.url).optional(), height: z.number().int().min(0).optional(), width: z.number().int().min(0).optional(), altText: text().nullish() }).nullish(),
  url: z.object({ relativePath: text(CART_LIMITS.url).optional(), url: text(CART_LIMITS.url).nullish() }).nullish(),
  itemType: z.object({ preset: z.enum(['PHYSICAL', 'DIGITAL', 'GIFT_CARD', 'SERVICE']).optional(), custom: text(100).optional() }).nullish(),
  taxGroupId: id.nullish(),
  physicalProperties: z.object({ weight: z.number().min(0).max(1_000_000).nullish(), sku: text(100).nullish(), shippable: z.boolean().optional() }).nullish(),
  paymentOption: z.enum(['FULL_PAYMENT_ONLINE', 'FULL_PAYMENT_OFFLINE', 'MEMBERSHIP', 'DEPOSIT_ONLINE', 'MEMBERSHIP_OFFLINE']).nullish(),
  quantityAvailable: z.number().int().min(0).max(CART_LIMITS.quantityMax).nullish(),
  catalogReference: catalogReference.nullish(),
  rootCatalogItemId: id.nullish(),
});

const merchantDiscount = z.object({
  amount: decimalString.nullish(),
  percentage: z.number().min(0).max(100).nullish(),
  lineItemIds: z.array(id).max(CART_LIMITS.lineItems).nullish(),
});

const lines = z.array(lineItemInput).max(CART_LIMITS.linesPerCall);
const customLines = z.array(customLineItemInput).max(CART_LIMITS.linesPerCall);

export const addToCartRequest = conforms<AddToCartRequest>()(z.object({
  lineItems: lines.optional(),
  customLineItems: customLines.optional(),
  businessLocationId: id.nullish(),
}));

export const updateCartRequest = conforms<UpdateCartRequest>()(z.object({
  cartInfo: z.object({
    buyerNote: text(CART_LIMITS.text).nullish(),
    buyerLanguage: text(10).nullish(),
    contactInfo: addressWithContact.nullish(),
    selectedShippingOption: selectedShippingOption.nullish(),
    businessLocationId: id.nullish(),
    overrideCheckoutUrl: checkoutUrl.nullish(),
    buyerInfo: z.object({ email: email.nullish() }).nullish(),
  }).nullish(),
  couponCode: text(CART_LIMITS.couponCode).nullish(),
  merchantDiscounts: z.array(merchantDiscount).max(CART_LIMITS.merchantDiscounts).nullish(),
  lineItems: lines.optional(),
  customLineItems: customLines.optional(),
}));

export const removeLineItemsRequest = z.object({ lineItemIds: z.array(id).min(1).max(CART_LIMITS.linesPerCall) });

const quantityLine = conforms<LineItemQuantityInput>()(z.object({ id, quantity: z.number().int().min(0).max(CART_LIMITS.quantityMax) }));
export const updateQuantityRequest = z.object({ lineItems: z.array(quantityLine).min(1).max(CART_LIMITS.linesPerCall) });

export const estimateTotalsRequest = conforms<EstimateTotalsRequest>()(z.object({
  selectedShippingOption: selectedShippingOption.nullish(),
  shippingAddress: address.nullish(),
  billingAddress: address.nullish(),
  selectedMemberships: z.object({ memberships: z.array(z.object({ id, appId: id, lineItemIds: z.array(id).max(CART_LIMITS.lineItems).optional() })).max(20).optional() }).nullish(),
  calculateTax: z.boolean().nullish(),
  calculateShipping: z.boolean().nullish(),
  calculateAdditionalFees: z.boolean().nullish(),
}));

const channelType = z.enum(['UNSPECIFIED', 'WEB', 'POS', 'EBAY', 'AMAZON', 'OTHER_PLATFORM', 'WIX_APP_STORE', 'WIX_INVOICES', 'BACKOFFICE_MERCHANT', 'WISH', 'CLASS_PASS', 'GLOBAL_E', 'FACEBOOK', 'ETSY', 'TIKTOK', 'FAIRE']);

export const createCheckoutFromCartRequest = conforms<CreateCheckoutFromCartRequest>()(z.object({
  channelType: channelType.nullish(),
  shippingAddress: address.nullish(),
  billingAddress: address.nullish(),
  selectedShippingOption: selectedShippingOption.nullish(),
  email: email.nullish(),
}));

const checkoutInfo = z.object({
  billingInfo: addressWithContact.nullish(),
  shippingInfo: z.object({
    shippingDestination: addressWithContact.nullish(),
    selectedCarrierServiceOption: z.object({ code: text(100), carrierId: id.nullish() }).nullish(),
  }).nullish(),
  buyerNote: text(CART_LIMITS.text).nullish(),
  buyerInfo: z.object({ email: email.nullish() }).nullish(),
  buyerLanguage: text(10).nullish(),
  customFields: z.array(z.object({ value: z.unknown(), title: text(), translatedTitle: text().nullish() })).max(CART_LIMITS.customFields).nullish(),
  channelType: channelType.nullish(),
});

export const createCheckoutRequest = conforms<CreateCheckoutRequest>()(z.object({
  checkoutInfo: checkoutInfo.nullish(),
  couponCode: text(CART_LIMITS.couponCode).nullish(),
  lineItems: lines.optional(),
  customLineItems: customLines.optional(),
  channelType,
  giftCardCode: text(100).nullish(),
  overrideCheckoutUrl: checkoutUrl.nullish(),
}));

export const updateCheckoutRequest = conforms<UpdateCheckoutRequest>()(z.object({
  checkout: checkoutInfo,
  couponCode: text(CART_LIMITS.couponCode).nullish(),
  giftCardCode: text(100).nullish(),
  overrideCheckoutUrl: checkoutUrl.nullish(),
  lineItems: lines.optional(),
  customLineItems: customLines.optional(),
}));

export const idRequest = z.object({ id });
export const checkoutIdRequest = z.object({ checkoutId: id });
export const addToCheckoutRequest = z.object({ id, lineItems: lines.optional(), customLineItems: customLines.optional() });
export const removeCheckoutLinesRequest = z.object({ id, lineItemIds: z.array(id).min(1).max(CART_LIMITS.linesPerCall) });
export const checkoutQuantityRequest = z.object({ id, lineItems: z.array(quantityLine).min(1).max(CART_LIMITS.linesPerCall) });
export const createOrderRequest = z.object({ id, savePaymentMethod: z.boolean().nullish(), delayCapture: z.boolean().nullish() });
export const createOrderAndChargeRequest = z.object({
  id, paymentToken: text(500).nullish(), savePaymentMethod: z.boolean().nullish(), delayCapture: z.boolean().nullish(),
});
export const redirectTokenRequest = z.object({ token: text(500) });

export type LineItemInput = z.infer<typeof lineItemInput>;
export type CustomLineItemInput = z.infer<typeof customLineItemInput>;
export type UpdateCartInput = z.infer<typeof updateCartRequest>;
export type EstimateTotalsInput = z.infer<typeof estimateTotalsRequest>;
export type CheckoutInfoInput = z.infer<typeof checkoutInfo>;
