/**
 * The owner-configured inputs of cart pricing as they travel on the wire: discount rules
 * (ecom.discountRules), tax groups and tax regions (ecom.taxGroups / ecom.taxRegions, with Vitrine's
 * manual rates and tax settings), checkout settings (ecom.checkoutSettings), and two Vitrine
 * extensions without a contract module: coupons (at the platform's coupon paths) and shipping regions.
 * Money amounts are decimal strings in the site's currency; percentages are numbers (10 = 10%).
 */
import type { BulkActionMetadata, BulkItemMetadata, CursorPagingMetadata, IsoDate, SortItem } from './common.js';

// ---- discount rules ----

export type DiscountRuleStatus = 'LIVE' | 'EXPIRED' | 'PENDING';
export type ScopeType = 'CATALOG_ITEM' | 'CUSTOM_FILTER';
export type TriggerType = 'AND' | 'OR' | 'SUBTOTAL_RANGE' | 'ITEM_QUANTITY_RANGE' | 'CUSTOMER_ELIGIBILITY' | 'CUSTOM';
/** The contract knows SPECIFIC_ITEMS; GLOBAL (whole cart) and SHIPPING are Vitrine extensions the engine prices. */
export type DiscountTargetType = 'SPECIFIC_ITEMS' | 'GLOBAL' | 'SHIPPING';
export type DiscountRuleType = 'PERCENTAGE' | 'FIXED_AMOUNT' | 'FIXED_PRICE';

export interface DiscountScope {
  id?: string;
  type: ScopeType;
  catalogItemFilter?: { catalogAppId: string; catalogItemIds?: string[] };
  customFilter?: { appId: string; params?: Record<string, unknown> };
}

export interface DiscountTrigger {
  triggerType: TriggerType;
  and?: { triggers: DiscountTrigger[] };
  or?: { triggers: DiscountTrigger[] };
  subtotalRange?: { scopes?: DiscountScope[]; from?: string | null; to?: string | null };
  itemQuantityRange?: { scopes?: DiscountScope[]; from?: number | null; to?: number | null };
  customerEligibility?: { eligibilityType?: 'INDIVIDUAL_MEMBERS'; individualMembersInfo?: { memberIds: string[] } };
  customTrigger?: { id: string; appId: string };
}

export interface DiscountValue {
  targetType: DiscountTargetType;
  specificItemsInfo?: { scopes: DiscountScope[] };
  discountType: DiscountRuleType;
  percentage?: number;
  fixedAmount?: string;
  fixedPrice?: string;
}

export interface ActiveTimeInfo { start?: IsoDate | null; end?: IsoDate | null }

export interface DiscountRule {
  id: string;
  revision: string;
  createdDate: IsoDate;
  updatedDate: IsoDate;
  active: boolean;
  name: string;
  trigger?: DiscountTrigger;
  activeTimeInfo?: ActiveTimeInfo;
  discounts: { values: DiscountValue[] };
  /** From `active` and `activeTimeInfo` at the time of the answer. */
  status: DiscountRuleStatus;
  usageCount: number;
}

/** Create and update input: what the owner sets (id, dates, status and usage are the server's). */
export interface DiscountRuleInput {
  id?: string;
  revision?: string;
  active?: boolean;
  name?: string;
  trigger?: DiscountTrigger | null;
  activeTimeInfo?: ActiveTimeInfo | null;
  discounts?: { values: DiscountValue[] };
}

export interface RulesQuery {
  filter?: Record<string, unknown> | null;
  sort?: SortItem[];
  cursorPaging?: { limit?: number | null; cursor?: string | null };
}

export interface QueryDiscountRulesResponse { discountRules: DiscountRule[]; pagingMetadata: CursorPagingMetadata }

// ---- tax groups ----

export interface TaxGroup { id: string; name: string; revision: string; createdDate?: IsoDate; updatedDate?: IsoDate }
export interface TaxGroupInput { id?: string; name?: string; revision?: string }
export interface QueryTaxGroupsResponse { taxGroups: TaxGroup[]; pagingMetadata: CursorPagingMetadata }
export interface ListDefaultTaxGroupsByAppIdsResponse {
  results: { taxGroupMetadata: BulkItemMetadata; taxGroup?: TaxGroup }[];
  bulkActionMetadata: BulkActionMetadata;
}

// ---- tax regions ----

export type TaxableAddressType = 'BUSINESS' | 'BILLING' | 'SHIPPING';
export type JurisdictionType = 'UNDEFINED' | 'COUNTRY' | 'STATE' | 'COUNTY' | 'CITY' | 'SPECIAL';

/** A manual tax rate of a region (Vitrine extension): `taxGroupId` null is the rate of every group without its own. */
export interface ManualTaxRate {
  id: string;
  taxGroupId: string | null;
  /** A fraction as a decimal string: "0.0725" is 7.25%. */
  taxRate: string;
  taxName: string;
  taxType?: string | null;
  jurisdiction: string;
  jurisdictionType: JurisdictionType;
}

export interface TaxRegion {
  id: string;
  country: string;
  /** '' for the whole country. */
  subdivision: string;
  appId: string;
  taxIncludedInPrice: boolean;
  revision: string;
  createdDate: IsoDate;
  updatedDate: IsoDate;
}

export interface TaxRegionInput {
  id?: string;
  country?: string;
  subdivision?: string;
  appId?: string;
  taxIncludedInPrice?: boolean;
  revision?: string;
}

export interface QueryTaxRegionsResponse { taxRegions: TaxRegion[]; pagingMetadata: CursorPagingMetadata }
export interface BulkCreateTaxRegionResponse {
  results: { itemMetadata: BulkItemMetadata; item?: TaxRegion }[];
  bulkActionMetadata: BulkActionMetadata;
}

export interface ManualTaxRateInput {
  taxGroupId?: string | null;
  taxRate: string;
  taxName: string;
  taxType?: string | null;
  jurisdiction?: string;
  jurisdictionType?: JurisdictionType;
}
export interface ManualTaxRatesResponse { taxRegionId: string; manualRates: ManualTaxRate[] }

/** Site-wide tax settings (Vitrine extension). */
export interface TaxSettings {
  taxableAddressType: TaxableAddressType;
  /** Shipping is taxed at the rates of the lines it carries. */
  taxShipping: boolean;
  /** The address BUSINESS taxation uses, and where store pickup defaults to. */
  businessAddress: PricingAddress | null;
  /**
   * How amounts in the site's currency round at their last decimal: HALF_UP (commercial, the default)
   * or HALF_EVEN (banker's rounding, which some currencies' conventions and tax authorities require).
   */
  roundingMode: 'HALF_UP' | 'HALF_EVEN';
}
export interface PricingAddress { country?: string | null; subdivision?: string | null; city?: string | null; postalCode?: string | null; addressLine1?: string | null }

// ---- checkout settings ----

export interface CheckoutPolicy { visible?: boolean | null; content?: string | null }
export interface CheckoutSettings {
  checkoutPolicies: {
    termsAndConditions?: CheckoutPolicy;
    privacyPolicy?: CheckoutPolicy;
    returnPolicy?: CheckoutPolicy;
    digitalItemPolicy?: CheckoutPolicy;
    contactUs?: CheckoutPolicy;
    customPolicy?: CheckoutPolicy & { title?: string | null };
  };
  checkoutFields: {
    subscriptionCheckbox?: { visible?: boolean | null; checkedByDefault?: boolean | null; splitByChannel?: boolean | null };
    policyAgreementCheckbox?: { visible?: boolean | null; checkedByDefault?: boolean | null };
    giftCardRedeemEnabled?: boolean | null;
    mitEnabled?: boolean | null;
    delayCaptureEnabled?: boolean | null;
    captureBeforeExpiryEnabled?: boolean | null;
  };
  checkoutBrand: {
    header?: {
      text?: string | null;
      textColor?: string | null;
      logo?: { size?: 'SMALL' | 'MEDIUM' | 'LARGE'; image?: string | null };
      alignment?: 'SIDE' | 'CENTER';
      displayCheckoutLabel?: boolean | null;
      dividerColor?: string | null;
    };
    global?: { selectionColor?: string | null; placeOrderButtonColor?: string | null; buttonColor?: string | null };
  };
  checkoutBillingFields: 'UNKNOWN_BILLING_FIELDS' | 'ALL_BILLING_FIELDS' | 'MINIMAL_BILLING_FIELDS';
  createdDate?: IsoDate;
  updatedDate?: IsoDate;
}
export type CheckoutSettingsInput = Partial<Omit<CheckoutSettings, 'createdDate' | 'updatedDate'>>;

// ---- coupons (Vitrine extension at the platform's coupon paths) ----

export interface CouponScope { namespace: 'stores'; group?: { name: 'product'; entityId: string } }

export interface CouponSpecification {
  name: string;
  code: string;
  startTime: IsoDate;
  expirationTime?: IsoDate | null;
  usageLimit?: number | null;
  limitedToOneItem?: boolean | null;
  /** Exactly one of the four. */
  moneyOffAmount?: string | null;
  percentOffRate?: number | null;
  fixedPriceAmount?: string | null;
  freeShipping?: boolean | null;
  scope?: CouponScope | null;
  minimumSubtotal?: string | null;
  active?: boolean | null;
}

export interface Coupon {
  id: string;
  specification: CouponSpecification;
  numberOfUsages: number;
  expired: boolean;
  displayData: { name: string; code: string; discountDescription: string };
  dateCreated: IsoDate;
  dateUpdated: IsoDate;
}
export interface CouponInput { specification: Partial<CouponSpecification> }
export interface QueryCouponsResponse { coupons: Coupon[]; pagingMetadata: CursorPagingMetadata }

// ---- shipping regions (Vitrine extension) ----

export type ShippingRateType = 'FLAT' | 'FREE' | 'BY_WEIGHT' | 'BY_SUBTOTAL';
export interface ShippingRate {
  type: ShippingRateType;
  /** FLAT only. */
  price?: string | null;
  /** BY_WEIGHT only: the first range whose `upTo` (site weight unit) is at least the cart's weight; no `upTo` is "and above". */
  weightRanges?: { upTo?: number | null; price: string }[] | null;
  /** BY_SUBTOTAL only: the same over the shippable lines' subtotal after item discounts. */
  subtotalRanges?: { upTo?: string | null; price: string }[] | null;
}
export interface ShippingOption {
  code: string;
  title: string;
  rate: ShippingRate;
  freeOver?: string | null;
  deliveryWindow?: { fromHours: number; toHours: number } | null;
  deliveryTime?: string | null;
  pickup?: { address: PricingAddress; pickupMethod: 'STORE_PICKUP' | 'PICKUP_POINT'; instructions?: string | null } | null;
}
export interface ShippingDestination { country: string; subdivisions?: string[] | null }
export interface ShippingRegion {
  id: string;
  name: string;
  destinations: ShippingDestination[];
  options: ShippingOption[];
  revision: string;
  createdDate: IsoDate;
  updatedDate: IsoDate;
}
export interface ShippingRegionInput {
  name?: string;
  destinations?: ShippingDestination[];
  options?: ShippingOption[];
  revision?: string;
}
export interface ListShippingRegionsResponse { shippingRegions: ShippingRegion[] }
