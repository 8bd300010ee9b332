import { z } from 'zod';
import { countryCode } from '../../../http/iso-codes.js';
import { conforms } from '../../../http/conforms.js';
import { decimalString, identifier, isoDateTimeText } from '../../../http/wire-schemas.js';
import { CURSOR_MAX_LENGTH } from '../../../http/cursor.js';
import type {
  CheckoutSettingsInput, CouponInput, DiscountRuleInput, DiscountScope, DiscountTrigger, DiscountValue, ManualTaxRateInput,
  ShippingRegionInput, TaxGroupInput, TaxRegionInput, TaxSettings,
} from './model.js';
import * as L from './limits.js';

/** Wire shapes of the pricing rules' requests. Deeper rules (amounts in the site's currency, ranges) are the services'. */

const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
export const guid = z.string().regex(GUID, 'must be a GUID');
const revision = z.string().regex(/^\d{1,15}$/, 'must be an integer as text');
/** An ISO-8601 instant as text (the service stores it normalized to UTC). */
export const isoText = isoDateTimeText;
const shortText = (max: number) => z.string().max(max);
const name = (max: number) => z.string().trim().min(1).max(max);
/** A percentage such as 12.5 (of 100), at most 4 decimal places. */
const percentage = z.number().gt(0).max(100).refine((n) => Math.abs(n * 10_000 - Math.round(n * 10_000)) < 1e-6, 'must have at most 4 decimal places');
const country = countryCode;
/** ISO 3166-2 subdivision: `US-CA`, or the part after the dash (`CA`). */
const subdivision = z.string().regex(/^([A-Z]{2}-)?[A-Z0-9]{1,3}$/, 'must be an ISO 3166-2 subdivision, like "US-CA"');

// ---- query (filter, sort, cursor or offset paging) ----

const sortItem = z.object({ fieldName: z.string().min(1).max(100), order: z.enum(['ASC', 'DESC']).optional() });
export const queryInput = z.object({
  filter: z.record(z.string(), z.unknown()).nullish(),
  sort: z.array(sortItem).max(L.SORT_FIELDS_MAX).optional(),
  cursorPaging: z.object({ limit: z.number().int().min(1).max(L.PAGE_MAX).nullish(), cursor: z.string().max(CURSOR_MAX_LENGTH).nullish() }).optional(),
  paging: z.object({ limit: z.number().int().min(1).max(L.PAGE_MAX).nullish(), offset: z.number().int().min(0).max(100_000).nullish() }).optional(),
  // The tax-groups client may send these; every field is always returned.
  fields: z.array(z.string().max(100)).max(20).optional(),
  fieldsets: z.array(z.string().max(100)).max(20).optional(),
});
export type QueryInput = z.infer<typeof queryInput>;

// ---- discount rules ----

const scope: z.ZodType<DiscountScope> = z.strictObject({
  id: identifier(100).optional(),
  type: z.enum(['CATALOG_ITEM', 'CUSTOM_FILTER']),
  catalogItemFilter: z.strictObject({ catalogAppId: identifier(100, 1), catalogItemIds: z.array(identifier(100, 1)).max(L.SCOPE_ITEM_IDS_MAX).optional() }).optional(),
  customFilter: z.strictObject({ appId: identifier(100, 1), params: z.record(z.string(), z.unknown()).optional() }).optional(),
}).superRefine((s, ctx) => {
  if (s.type === 'CATALOG_ITEM' && !s.catalogItemFilter) ctx.addIssue({ code: 'custom', path: ['catalogItemFilter'], message: 'is required for a CATALOG_ITEM scope', params: { rule: 'REQUIRED_FIELD' } });
  if (s.type === 'CUSTOM_FILTER' && !s.customFilter) ctx.addIssue({ code: 'custom', path: ['customFilter'], message: 'is required for a CUSTOM_FILTER scope', params: { rule: 'REQUIRED_FIELD' } });
});
const scopes = z.array(scope).max(L.SCOPES_MAX);

const TRIGGER_FIELD = { AND: 'and', OR: 'or', SUBTOTAL_RANGE: 'subtotalRange', ITEM_QUANTITY_RANGE: 'itemQuantityRange', CUSTOMER_ELIGIBILITY: 'customerEligibility', CUSTOM: 'customTrigger' } as const;

const trigger: z.ZodType<DiscountTrigger> = z.lazy(() => z.strictObject({
  triggerType: z.enum(['AND', 'OR', 'SUBTOTAL_RANGE', 'ITEM_QUANTITY_RANGE', 'CUSTOMER_ELIGIBILITY', 'CUSTOM']),
  and: z.strictObject({ triggers: z.array(trigger).min(1).max(L.TRIGGER_CHILDREN_MAX) }).optional(),
  or: z.strictObject({ triggers: z.array(trigger).min(1).max(L.TRIGGER_CHILDREN_MAX) }).optional(),
  subtotalRange: z.strictObject({ scopes: scopes.optional(), from: decimalString.nullish(), to: decimalString.nullish() })
    .refine((r) => r.from == null || r.to == null || Number(r.from) <= Number(r.to), { message: 'to must not be below from (the range would hold nothing)', path: ['to'], params: { rule: 'FORMAT' } }).optional(),
  itemQuantityRange: z.strictObject({ scopes: scopes.optional(), from: z.number().int().min(0).max(1_000_000).nullish(), to: z.number().int().min(0).max(1_000_000).nullish() })
    .refine((r) => r.from == null || r.to == null || r.from <= r.to, { message: 'to must not be below from (the range would hold nothing)', path: ['to'], params: { rule: 'FORMAT' } }).optional(),
  customerEligibility: z.strictObject({
    eligibilityType: z.literal('INDIVIDUAL_MEMBERS').optional(),
    individualMembersInfo: z.strictObject({ memberIds: z.array(guid).max(L.ELIGIBLE_MEMBERS_MAX) }).optional(),
  }).optional(),
  customTrigger: z.strictObject({ id: identifier(100, 1), appId: identifier(100, 1) }).optional(),
}).superRefine((t, ctx) => {
  const own = TRIGGER_FIELD[t.triggerType];
  if (!t[own]) ctx.addIssue({ code: 'custom', path: [own], message: `is required when triggerType is ${t.triggerType}`, params: { rule: 'REQUIRED_FIELD' } });
  for (const other of Object.values(TRIGGER_FIELD)) {
    if (other !== own && t[other] !== undefined) ctx.addIssue({ code: 'custom', path: [other], message: `is not allowed when triggerType is ${t.triggerType}`, params: { rule: 'ONE_OF_ALIGNMENT' } });
  }
  if (triggerDepth(t) > L.TRIGGER_DEPTH_MAX) ctx.addIssue({ code: 'custom', message: `triggers nest at most ${L.TRIGGER_DEPTH_MAX} deep`, params: { rule: 'MAX' } });
}));

function triggerDepth(t: DiscountTrigger): number {
  const kids = t.and?.triggers ?? t.or?.triggers ?? [];
  return 1 + kids.reduce((m, k) => Math.max(m, triggerDepth(k)), 0);
}

const DISCOUNT_FIELD = { PERCENTAGE: 'percentage', FIXED_AMOUNT: 'fixedAmount', FIXED_PRICE: 'fixedPrice' } as const;

export const discountValue: z.ZodType<DiscountValue> = z.strictObject({
  targetType: z.enum(['SPECIFIC_ITEMS', 'GLOBAL', 'SHIPPING']),
  specificItemsInfo: z.strictObject({ scopes: scopes.min(1) }).optional(),
  discountType: z.enum(['PERCENTAGE', 'FIXED_AMOUNT', 'FIXED_PRICE']),
  percentage: percentage.optional(),
  fixedAmount: decimalString.optional(),
  fixedPrice: decimalString.optional(),
}).superRefine((d, ctx) => {
  const own = DISCOUNT_FIELD[d.discountType];
  if (d[own] === undefined) ctx.addIssue({ code: 'custom', path: [own], message: `is required when discountType is ${d.discountType}`, params: { rule: 'REQUIRED_FIELD' } });
  for (const other of Object.values(DISCOUNT_FIELD)) {
    if (other !== own && d[other] !== undefined) ctx.addIssue({ code: 'custom', path: [other], message: `is not allowed when discountType is ${d.discountType}`, params: { rule: 'ONE_OF_ALIGNMENT' } });
  }
  if (d.targetType === 'SPECIFIC_ITEMS' && !d.specificItemsInfo) ctx.addIssue({ code: 'custom', path: ['specificItemsInfo'], message: 'is required when targetType is SPECIFIC_ITEMS', params: { rule: 'REQUIRED_FIELD' } });
  if (d.targetType !== 'SPECIFIC_ITEMS' && d.specificItemsInfo) ctx.addIssue({ code: 'custom', path: ['specificItemsInfo'], message: `is not allowed when targetType is ${d.targetType}`, params: { rule: 'FIELD_NOT_ALLOWED' } });
  if (d.discountType === 'FIXED_PRICE' && d.targetType !== 'SPECIFIC_ITEMS') ctx.addIssue({ code: 'custom', path: ['targetType'], message: 'must be SPECIFIC_ITEMS for a FIXED_PRICE discount', params: { rule: 'FORMAT' } });
});

const activeTimeInfo = z.strictObject({ start: isoText.nullish(), end: isoText.nullish() }).refine(
  (t) => !t.start || !t.end || new Date(t.start).getTime() < new Date(t.end).getTime(),
  { message: 'end must be after start', path: ['end'], params: { rule: 'FORMAT' } },
);

// Not `conforms<>()`: its field-by-field comparison cannot walk the recursive trigger type. `trigger` is
// typed as the wire's DiscountTrigger above, and the annotation ties the rest of the input.
const discountRuleInput: z.ZodType<DiscountRuleInput, unknown> = z.strictObject({
  id: guid.optional(),
  revision: revision.optional(),
  active: z.boolean().optional(),
  name: name(L.RULE_NAME_MAX).optional(),
  trigger: trigger.nullish(),
  activeTimeInfo: activeTimeInfo.nullish(),
  discounts: z.strictObject({ values: z.array(discountValue).min(1).max(L.RULE_DISCOUNT_VALUES_MAX) }).optional(),
  // Server-owned fields a client may echo back from a read: ignored.
  createdDate: z.unknown().optional(),
  updatedDate: z.unknown().optional(),
  status: z.unknown().optional(),
  usageCount: z.unknown().optional(),
}).transform(({ createdDate: _c, updatedDate: _u, status: _s, usageCount: _n, ...rest }) => rest);

export const createDiscountRuleRequest = z.object({ discountRule: discountRuleInput });
export const updateDiscountRuleRequest = z.object({ discountRuleId: guid, discountRule: discountRuleInput });
export const discountRuleIdRequest = z.object({ discountRuleId: guid });
export const queryRequest = z.object({ query: queryInput.optional() });

// ---- tax groups ----

const taxGroupInput = conforms<TaxGroupInput>()(z.strictObject({
  id: guid.optional(),
  name: name(L.TAX_GROUP_NAME_MAX).optional(),
  revision: revision.optional(),
  createdDate: z.unknown().optional(),
  updatedDate: z.unknown().optional(),
}).transform(({ createdDate: _c, updatedDate: _u, ...rest }) => rest));

export const createTaxGroupRequest = z.object({ taxGroup: taxGroupInput });
export const updateTaxGroupRequest = z.object({ taxGroupId: guid, taxGroup: taxGroupInput });
export const taxGroupIdRequest = z.object({ taxGroupId: guid });
export const appIdsRequest = z.object({ appIds: z.array(identifier(100, 1)).min(1).max(L.APP_IDS_MAX) });

// ---- tax regions ----

const taxRegionInput = conforms<TaxRegionInput>()(z.strictObject({
  id: guid.optional(),
  country: country.optional(),
  subdivision: z.union([z.literal(''), subdivision]).optional(),
  appId: identifier(100).optional(),
  taxIncludedInPrice: z.boolean().optional(),
  revision: revision.optional(),
  createdDate: z.unknown().optional(),
  updatedDate: z.unknown().optional(),
}).transform(({ createdDate: _c, updatedDate: _u, ...rest }) => rest));

export const createTaxRegionRequest = z.object({ taxRegion: taxRegionInput });
export const bulkCreateTaxRegionRequest = z.object({ taxRegions: z.array(taxRegionInput).min(1).max(L.TAX_REGIONS_BULK_MAX), returnEntity: z.boolean().optional() });
export const updateTaxRegionRequest = z.object({ taxRegionId: guid, taxRegion: taxRegionInput });
export const taxRegionIdRequest = z.object({ taxRegionId: guid });

const JURISDICTION_TYPES = ['UNDEFINED', 'COUNTRY', 'STATE', 'COUNTY', 'CITY', 'SPECIAL'] as const;
const manualRateInput = conforms<ManualTaxRateInput>()(z.strictObject({
  taxGroupId: guid.nullish(),
  taxRate: decimalString,
  taxName: name(L.TAX_NAME_MAX),
  taxType: shortText(L.TAX_NAME_MAX).nullish(),
  jurisdiction: shortText(L.JURISDICTION_MAX).optional(),
  jurisdictionType: z.enum(JURISDICTION_TYPES).optional(),
}));
export const setManualRatesRequest = z.object({ taxRegionId: guid, manualRates: z.array(manualRateInput).max(L.MANUAL_RATES_PER_REGION_MAX) });

const address = z.strictObject({
  country: country.nullish(),
  subdivision: subdivision.nullish(),
  city: shortText(L.SHORT_TEXT_MAX).nullish(),
  postalCode: shortText(50).nullish(),
  addressLine1: shortText(L.SHORT_TEXT_MAX).nullish(),
});
export const updateTaxSettingsRequest = z.object({
  taxSettings: conforms<Partial<TaxSettings>>()(z.strictObject({
    taxableAddressType: z.enum(['BUSINESS', 'BILLING', 'SHIPPING']).optional(),
    taxShipping: z.boolean().optional(),
    businessAddress: address.nullable().optional(),
    roundingMode: z.enum(['HALF_UP', 'HALF_EVEN']).optional(),
  })),
});

// ---- checkout settings ----

const policy = z.strictObject({ visible: z.boolean().nullish(), content: shortText(L.POLICY_TEXT_MAX).nullish() });
const checkbox = z.strictObject({ visible: z.boolean().nullish(), checkedByDefault: z.boolean().nullish() });
const color = shortText(50).nullish();
const checkoutSettingsInput = conforms<CheckoutSettingsInput>()(z.strictObject({
  checkoutPolicies: z.strictObject({
    termsAndConditions: policy.optional(),
    privacyPolicy: policy.optional(),
    returnPolicy: policy.optional(),
    digitalItemPolicy: policy.optional(),
    contactUs: policy.optional(),
    customPolicy: policy.extend({ title: shortText(L.SHORT_TEXT_MAX).nullish() }).optional(),
  }).optional(),
  checkoutFields: z.strictObject({
    subscriptionCheckbox: checkbox.extend({ splitByChannel: z.boolean().nullish() }).optional(),
    policyAgreementCheckbox: checkbox.optional(),
    giftCardRedeemEnabled: z.boolean().nullish(),
    mitEnabled: z.boolean().nullish(),
    delayCaptureEnabled: z.boolean().nullish(),
    captureBeforeExpiryEnabled: z.boolean().nullish(),
  }).optional(),
  checkoutBrand: z.strictObject({
    header: z.strictObject({
      text: shortText(L.SHORT_TEXT_MAX).nullish(),
      textColor: color,
      logo: z.strictObject({ size: z.enum(['SMALL', 'MEDIUM', 'LARGE']).optional(), image: shortText(2_000).nullish() }).optional(),
      alignment: z.enum(['SIDE', 'CENTER']).optional(),
      displayCheckoutLabel: z.boolean().nullish(),
      dividerColor: color,
    }).optional(),
    global: z.strictObject({ selectionColor: color, placeOrderButtonColor: color, buttonColor: color }).optional(),
  }).optional(),
  checkoutBillingFields: z.enum(['UNKNOWN_BILLING_FIELDS', 'ALL_BILLING_FIELDS', 'MINIMAL_BILLING_FIELDS']).optional(),
}));
export const updateCheckoutSettingsRequest = z.object({ checkoutSettings: checkoutSettingsInput });

// ---- coupons ----

const couponSpecification = z.strictObject({
  name: name(L.COUPON_NAME_MAX).optional(),
  code: z.string().regex(/^[\p{L}\p{N}_-]+$/u, 'must be letters, digits, "-" or "_"').max(L.COUPON_CODE_MAX).optional(),
  startTime: isoText.optional(),
  expirationTime: isoText.nullish(),
  usageLimit: z.number().int().min(1).max(L.COUPON_USAGE_LIMIT_MAX).nullish(),
  limitedToOneItem: z.boolean().nullish(),
  moneyOffAmount: decimalString.nullish(),
  percentOffRate: percentage.nullish(),
  fixedPriceAmount: decimalString.nullish(),
  freeShipping: z.boolean().nullish(),
  scope: z.strictObject({ namespace: z.literal('stores'), group: z.strictObject({ name: z.literal('product'), entityId: identifier(100, 1) }).optional() }).nullish(),
  minimumSubtotal: decimalString.nullish(),
  active: z.boolean().nullish(),
});
const couponInput = conforms<CouponInput>()(z.strictObject({ specification: couponSpecification }));
export const createCouponRequest = z.object({ specification: couponSpecification });
export const updateCouponRequest = z.object({ id: guid, specification: couponSpecification });
export const couponIdRequest = z.object({ id: guid });
void couponInput;

// ---- shipping regions ----

const pickupAddress = address;
const shippingOption = z.strictObject({
  code: identifier(50, 1),
  title: name(L.SHIPPING_TITLE_MAX),
  rate: z.strictObject({
    type: z.enum(['FLAT', 'FREE', 'BY_WEIGHT', 'BY_SUBTOTAL']),
    price: decimalString.nullish(),
    weightRanges: z.array(z.strictObject({ upTo: z.number().gt(0).max(1_000_000).nullish(), price: decimalString })).min(1).max(L.SHIPPING_RANGES_MAX).nullish(),
    subtotalRanges: z.array(z.strictObject({ upTo: decimalString.nullish(), price: decimalString })).min(1).max(L.SHIPPING_RANGES_MAX).nullish(),
  }).superRefine((r, ctx) => {
    const own = r.type === 'FLAT' ? 'price' : r.type === 'BY_WEIGHT' ? 'weightRanges' : r.type === 'BY_SUBTOTAL' ? 'subtotalRanges' : null;
    for (const f of ['price', 'weightRanges', 'subtotalRanges'] as const) {
      if (f === own && r[f] == null) ctx.addIssue({ code: 'custom', path: [f], message: `is required when type is ${r.type}`, params: { rule: 'REQUIRED_FIELD' } });
      if (f !== own && r[f] != null) ctx.addIssue({ code: 'custom', path: [f], message: `is not allowed when type is ${r.type}`, params: { rule: 'ONE_OF_ALIGNMENT' } });
    }
  }),
  freeOver: decimalString.nullish(),
  deliveryWindow: z.strictObject({ fromHours: z.number().int().min(0).max(L.DELIVERY_HOURS_MAX), toHours: z.number().int().min(0).max(L.DELIVERY_HOURS_MAX) })
    .refine((w) => w.fromHours <= w.toHours, { message: 'toHours must not be before fromHours', path: ['toHours'], params: { rule: 'FORMAT' } }).nullish(),
  deliveryTime: shortText(L.SHORT_TEXT_MAX).nullish(),
  pickup: z.strictObject({ address: pickupAddress, pickupMethod: z.enum(['STORE_PICKUP', 'PICKUP_POINT']), instructions: shortText(1_000).nullish() }).nullish(),
});
const destination = z.strictObject({ country, subdivisions: z.array(subdivision).max(L.SHIPPING_SUBDIVISIONS_MAX).nullish() });
const shippingRegionInput = conforms<ShippingRegionInput>()(z.strictObject({
  name: name(L.SHIPPING_REGION_NAME_MAX).optional(),
  destinations: z.array(destination).min(1).max(L.SHIPPING_DESTINATIONS_MAX).optional(),
  options: z.array(shippingOption).max(L.SHIPPING_OPTIONS_MAX).optional(),
  revision: revision.optional(),
}));
export const createShippingRegionRequest = z.object({ shippingRegion: shippingRegionInput });
export const updateShippingRegionRequest = z.object({ shippingRegionId: guid, shippingRegion: shippingRegionInput });
export const shippingRegionIdRequest = z.object({ shippingRegionId: guid });
export const empty = z.object({});
