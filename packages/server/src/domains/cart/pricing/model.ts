/**
 * The engine's input and output. Field names follow the ecom contract (current cart estimate-totals,
 * checkout, discount rules, tax regions, manual tax mappings) so a route maps them one to one. Amounts
 * are decimal strings in the cart's currency; dates are ISO 8601 strings; `now` is always an input.
 */
import type { RoundingMode } from './money.js';

export type ItemType = 'PHYSICAL' | 'DIGITAL' | 'GIFT_CARD' | 'SERVICE' | 'CUSTOM_AMOUNT_ITEM';
export type AvailabilityStatus = 'AVAILABLE' | 'NOT_FOUND' | 'NOT_AVAILABLE' | 'PARTIALLY_AVAILABLE';
export type TaxableAddressType = 'BUSINESS' | 'BILLING' | 'SHIPPING';
export type JurisdictionType = 'UNDEFINED' | 'COUNTRY' | 'STATE' | 'COUNTY' | 'CITY' | 'SPECIAL';
export type DiscountTargetType = 'GLOBAL' | 'SPECIFIC_ITEMS' | 'SHIPPING';
export type DiscountRuleType = 'PERCENTAGE' | 'FIXED_AMOUNT' | 'FIXED_PRICE';
export type ChargeType = 'HANDLING_FEE' | 'INSURANCE';
export type AdditionalFeeSource = 'SERVICE_PLUGIN' | 'ITEM' | 'MANUAL' | 'SHIPPING' | 'PLATFORM';

export interface PricingAddress { country?: string | null; subdivision?: string | null; city?: string | null; postalCode?: string | null; addressLine1?: string | null }

export interface PricingLineItem {
  id: string;
  quantity: number;
  /** Unit price the buyer pays before discounts (catalog price with modifiers). */
  price: string;
  /** Unit price before sale reductions (compare-at); defaults to `price`. */
  fullPrice?: string | null;
  catalogReference?: { catalogItemId: string; appId: string } | null;
  rootCatalogItemId?: string | null;
  itemType: ItemType;
  taxGroupId?: string | null;
  physicalProperties?: { weight?: number | null; shippable?: boolean | null } | null;
  availability?: { status: AvailabilityStatus; quantityAvailable?: number | null } | null;
}

export interface Scope {
  type: 'CATALOG_ITEM' | 'CUSTOM_FILTER';
  catalogItemFilter?: { catalogAppId: string; catalogItemIds?: string[] | null } | null;
}

export interface DiscountTrigger {
  triggerType: 'AND' | 'OR' | 'SUBTOTAL_RANGE' | 'ITEM_QUANTITY_RANGE' | 'CUSTOMER_ELIGIBILITY' | 'CUSTOM';
  and?: { triggers: DiscountTrigger[] } | null;
  or?: { triggers: DiscountTrigger[] } | null;
  /** Bounds inclusive, compared with the in-scope subtotal before any discount. */
  subtotalRange?: { scopes?: Scope[] | null; from?: string | null; to?: string | null } | null;
  itemQuantityRange?: { scopes?: Scope[] | null; from?: number | null; to?: number | null } | null;
  customerEligibility?: { individualMembersInfo?: { memberIds: string[] } | null } | null;
}

export interface DiscountValue {
  /** The contract's rules know SPECIFIC_ITEMS; the engine also prices whole-cart and shipping targets. */
  targetType: DiscountTargetType;
  specificItemsInfo?: { scopes: Scope[] } | null;
  discountType: DiscountRuleType;
  percentage?: number | null;
  fixedAmount?: string | null;
  fixedPrice?: string | null;
}

export interface DiscountRuleInput {
  id: string;
  name: string;
  active?: boolean | null;
  trigger?: DiscountTrigger | null;
  activeTimeInfo?: { start?: string | null; end?: string | null } | null;
  discounts: { values: DiscountValue[] };
}

export interface CouponInput {
  id: string;
  code: string;
  name: string;
  active?: boolean | null;
  discount: DiscountValue;
  /** Pre-discount subtotal of the whole cart must reach this. */
  minimumSubtotal?: string | null;
  startTime?: string | null;
  expirationTime?: string | null;
  /** Uses left under the coupon's usage limit, counted by the caller; null means unlimited. */
  remainingUses?: number | null;
  /** The coupon takes its discount off one unit only: of the eligible line with the highest unit price. */
  limitedToOneItem?: boolean | null;
}

/** Set by the merchant on a cart: an amount or a percentage, for given lines or the whole cart. */
export interface MerchantDiscountInput { amount?: string | null; percentage?: number | null; lineItemIds?: string[] | null }

export interface TaxRegionInput { id: string; country: string; subdivision?: string | null; taxIncludedInPrice: boolean }

/** A manual rate: `taxGroupId` null is the region's rate for every group without its own mapping. */
export interface ManualTaxMappingInput {
  id: string;
  taxRegionId: string;
  taxGroupId: string | null;
  /** A fraction as a decimal string: "0.2" is 20%. */
  taxRate: string;
  taxName: string;
  taxType?: string | null;
  jurisdiction: string;
  jurisdictionType: JurisdictionType;
}

export interface TaxSettingsInput {
  taxableAddressType?: TaxableAddressType | null;
  regions: TaxRegionInput[];
  manualTaxMappings: ManualTaxMappingInput[];
  /** Whether shipping is taxed (at the rates of the lines it carries); default true. */
  taxShipping?: boolean | null;
}

export type ShippingRate =
  | { type: 'FLAT'; price: string }
  | { type: 'FREE' }
  /** First range whose `upTo` is at least the cart's weight; a range without `upTo` is "and above". */
  | { type: 'BY_WEIGHT'; ranges: { upTo?: number | null; price: string }[] }
  /** Same, over the shippable lines' subtotal after item discounts. */
  | { type: 'BY_SUBTOTAL'; ranges: { upTo?: string | null; price: string }[] };

export interface ShippingOptionInput {
  code: string;
  title: string;
  rate: ShippingRate;
  /** Free when the shippable lines' subtotal after item discounts reaches this amount. */
  freeOver?: string | null;
  /** Delivery window after `now`, in hours. */
  deliveryWindow?: { fromHours: number; toHours: number } | null;
  deliveryTime?: string | null;
  pickup?: { address: PricingAddress; pickupMethod: 'STORE_PICKUP' | 'PICKUP_POINT'; instructions?: string | null } | null;
  otherCharges?: { type: ChargeType; price: string; details?: string | null }[] | null;
}

export interface ShippingRegionInput {
  id: string;
  name: string;
  /** A destination without subdivisions covers the whole country. */
  destinations: { country: string; subdivisions?: string[] | null }[];
  options: ShippingOptionInput[];
}

export interface AdditionalFeeInput {
  code: string;
  name: string;
  price: string;
  source?: AdditionalFeeSource | null;
  taxable?: boolean | null;
  taxGroupId?: string | null;
  lineItemIds?: string[] | null;
}

export interface PricingInput {
  currency: string;
  /** ISO 8601 instant the cart is priced at. */
  now: string;
  roundingMode?: RoundingMode | null;
  lineItems: PricingLineItem[];
  buyer?: { memberId?: string | null } | null;
  discountRules?: DiscountRuleInput[] | null;
  coupon?: CouponInput | null;
  merchantDiscounts?: MerchantDiscountInput[] | null;
  shippingAddress?: PricingAddress | null;
  billingAddress?: PricingAddress | null;
  businessAddress?: PricingAddress | null;
  tax?: TaxSettingsInput | null;
  shipping?: { regions: ShippingRegionInput[]; selectedShippingOption?: { code: string } | null } | null;
  additionalFees?: AdditionalFeeInput[] | null;
}

// ---- output ----

export interface Price { amount: string }

export interface TaxRateBreakdown { name: string; rate: string; tax: Price }
export interface TaxBreakdown {
  jurisdiction: string;
  jurisdictionType: JurisdictionType;
  taxName: string;
  taxType: string | null;
  rate: string;
  taxableAmount: Price;
  taxAmount: Price;
}
export interface ItemTaxFullDetails {
  taxableAmount: Price;
  taxRate: string;
  totalTax: Price;
  rateBreakdown: TaxRateBreakdown[];
  taxBreakdown: TaxBreakdown[];
}

export interface LineItemPricesData {
  price: Price;
  fullPrice: Price;
  priceBeforeDiscounts: Price;
  lineItemPrice: Price;
  totalDiscount: Price;
  totalPriceBeforeTax: Price;
  totalPriceAfterTax: Price;
  taxDetails: ItemTaxFullDetails;
}

export interface CalculatedLineItem {
  lineItemId: string;
  pricesBreakdown: LineItemPricesData;
  taxableAddress: { addressType: TaxableAddressType };
  /** False for lines left out of the totals (not found / not available). */
  priced: boolean;
}

export interface PriceSummary { subtotal: Price; discount: Price; shipping: Price; tax: Price; additionalFees: Price; total: Price }

export interface AppliedDiscount {
  discountType: DiscountTargetType;
  coupon?: { id: string; code: string; name: string; amount: Price };
  merchantDiscount?: { amount: Price; percentage: number | null };
  discountRule?: { id: string; name: { original: string }; amount: Price };
  lineItemIds: string[];
  /** What this discount took off each line (shipping discounts have none). */
  lineItemDiscounts: { id: string; totalDiscountAmount: Price }[];
}

export interface AggregatedTaxBreakdown {
  taxRegionId: string;
  taxGroupId: string | null;
  taxName: string;
  taxType: string | null;
  jurisdiction: string;
  jurisdictionTypeEnum: JurisdictionType;
  rate: string;
  aggregatedTaxAmount: Price;
  aggregatedTaxableAmount: Price;
}

export interface TaxSummary {
  taxableAmount: Price;
  totalTax: Price;
  taxIncludedInPrice: boolean;
  calculationDetails: { rateType: 'NO_TAX_COLLECTED' | 'MANUAL_RATE'; manualRateReason?: 'REGION_SETTING_TO_MANUAL' };
  aggregatedTaxBreakdown: AggregatedTaxBreakdown[];
}

export interface DeliveryLogistics {
  deliveryTime: string | null;
  deliveryTimeSlot: { from: string; to: string } | null;
  instructions: string | null;
  pickupDetails: { address: PricingAddress; businessLocation: boolean; pickupMethod: 'STORE_PICKUP' | 'PICKUP_POINT' } | null;
}

export interface ShippingOptionOut {
  code: string;
  title: string;
  logistics: DeliveryLogistics;
  cost: { price: Price; otherCharges: { type: ChargeType; price: Price; details: string | null }[] };
}

export interface SelectedCarrierServiceOption {
  code: string;
  title: string;
  logistics: DeliveryLogistics;
  requestedShippingOption: boolean;
  cost: {
    /** Rate plus other charges, before shipping discounts. */
    price: Price;
    totalDiscount: Price;
    totalPriceBeforeTax: Price;
    totalPriceAfterTax: Price;
    taxDetails: ItemTaxFullDetails;
  };
  /** How the shipping cost and its tax were spread over the shippable lines (for per-line tax reporting). */
  lineAllocations: { lineItemId: string; amount: Price; tax: Price }[];
}

export interface ShippingInformation {
  region: { id: string; name: string } | null;
  selectedCarrierServiceOption: SelectedCarrierServiceOption | null;
  carrierServiceOptions: { carrierId: string; shippingOptions: ShippingOptionOut[] }[];
}

export interface ErrorDetails { applicationError: { code: string; description: string; data: Record<string, unknown> } }
export interface CalculationErrors {
  generalShippingCalculationError?: ErrorDetails;
  selectedShippingOptionError?: ErrorDetails;
  couponCalculationError?: ErrorDetails;
  discountsCalculationError?: ErrorDetails;
  taxCalculationError?: ErrorDetails;
}

export interface Violation {
  severity: 'WARNING' | 'ERROR';
  target: { lineItem: { name: 'LINE_ITEM_DEFAULT'; id: string; suggestedFix?: 'REMOVE_LINE_ITEM' } } | { other: { name: 'OTHER_DEFAULT' } };
  description: string;
}

export interface AdditionalFeeOut {
  code: string;
  name: string;
  price: Price;
  priceBeforeTax: Price;
  priceAfterTax: Price;
  taxDetails: ItemTaxFullDetails;
  lineItemIds: string[];
  source: AdditionalFeeSource;
}

export interface PricingResult {
  currency: string;
  calculatedLineItems: CalculatedLineItem[];
  priceSummary: PriceSummary;
  appliedDiscounts: AppliedDiscount[];
  taxSummary: TaxSummary;
  shippingInfo: ShippingInformation;
  additionalFees: AdditionalFeeOut[];
  calculationErrors: CalculationErrors;
  violations: Violation[];
}
