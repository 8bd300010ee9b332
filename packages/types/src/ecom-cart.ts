/**
 * Current cart and checkout (ecom) as they travel on the wire: money is decimal text in the cart's
 * currency (`"10.50"`, `"1250"` for JPY), dates ISO text, REST field names (`id`, `createdDate`).
 */
import type { IsoDate } from './common.js';

/** An amount with its display text; converted fields repeat the amount (no currency conversion). */
export interface MultiCurrencyPrice { amount: string; convertedAmount: string; formattedAmount: string; formattedConvertedAmount: string }

export type ItemTypePreset = 'PHYSICAL' | 'DIGITAL' | 'GIFT_CARD' | 'SERVICE';
export type PaymentOptionType = 'FULL_PAYMENT_ONLINE' | 'FULL_PAYMENT_OFFLINE' | 'MEMBERSHIP' | 'DEPOSIT_ONLINE' | 'MEMBERSHIP_OFFLINE';
/** A catalog subscription the buyer chose for a line: the line is billed on this schedule and makes its order a subscription order. */
export interface SubscriptionOptionInfo {
  subscriptionOptionId: string;
  subscriptionSettings: { frequency: 'DAY' | 'WEEK' | 'MONTH' | 'YEAR'; interval: number; autoRenewal: boolean; billingCycles?: number | null };
  title: { original: string; translated: string };
  description: { original: string; translated: string };
}
export type ItemAvailabilityStatus = 'AVAILABLE' | 'NOT_FOUND' | 'NOT_AVAILABLE' | 'PARTIALLY_AVAILABLE';
export type ChannelType = 'UNSPECIFIED' | 'WEB' | 'POS' | 'EBAY' | 'AMAZON' | 'OTHER_PLATFORM' | 'WIX_APP_STORE' | 'WIX_INVOICES' | 'BACKOFFICE_MERCHANT' | 'WISH' | 'CLASS_PASS' | 'GLOBAL_E' | 'FACEBOOK' | 'ETSY' | 'TIKTOK' | 'FAIRE';
export type EcomWeightUnit = 'UNSPECIFIED_WEIGHT_UNIT' | 'KG' | 'LB';

/** Which catalog item a line is: `options` holds `variantId` or `options` (choice names), and `customTextFields`. */
export interface CatalogReference { catalogItemId: string; appId: string; options?: Record<string, unknown> | null }

export interface EcomStreetAddress { number?: string; name?: string }
export interface EcomAddress {
  country?: string | null; subdivision?: string | null; city?: string | null; postalCode?: string | null;
  streetAddress?: EcomStreetAddress | null; addressLine?: string | null; addressLine2?: string | null;
  countryFullname?: string | null; subdivisionFullname?: string | null;
}
export interface ContactDetails { firstName?: string | null; lastName?: string | null; phone?: string | null; company?: string | null }
export interface AddressWithContact { address?: EcomAddress | null; contactDetails?: ContactDetails | null }

export interface TranslatableText { original: string; translated?: string | null }
export interface DescriptionLine { name: TranslatableText; plainText?: TranslatableText; colorInfo?: TranslatableText & { code?: string | null }; lineType: 'PLAIN_TEXT' | 'COLOR' }
export interface LineImage { id: string; url: string; height?: number; width?: number; altText?: string | null; filename?: string | null }
export interface LinePhysicalProperties { weight?: number | null; sku?: string | null; shippable: boolean }

export interface CartLineItem {
  id: string;
  quantity: number;
  catalogReference?: CatalogReference;
  productName: TranslatableText;
  url?: { relativePath: string; url: string };
  price: MultiCurrencyPrice;
  fullPrice: MultiCurrencyPrice;
  priceBeforeDiscounts: MultiCurrencyPrice;
  lineItemPrice: MultiCurrencyPrice;
  descriptionLines: DescriptionLine[];
  image?: LineImage;
  availability: { status: ItemAvailabilityStatus; quantityAvailable?: number | null };
  physicalProperties?: LinePhysicalProperties;
  itemType: { preset?: ItemTypePreset; custom?: string };
  paymentOption: PaymentOptionType;
  rootCatalogItemId?: string | null;
  priceDescription?: TranslatableText;
  taxGroupId?: string | null;
  customLineItem: boolean;
  subscriptionOptionInfo?: SubscriptionOptionInfo;
  fixedQuantity: boolean;
  priceUndetermined: boolean;
  membersOnly: boolean;
}

export interface BuyerInfo { visitorId?: string; memberId?: string; userId?: string; contactId?: string | null; email?: string | null }
export interface CartDiscountInfo { coupon?: { id: string; code: string }; merchantDiscount?: { amount: MultiCurrencyPrice } }
export interface SelectedShippingOption { carrierId?: string | null; code: string }

export interface Cart {
  id: string;
  lineItems: CartLineItem[];
  buyerNote?: string | null;
  buyerInfo: BuyerInfo;
  currency: string;
  conversionCurrency: string;
  paymentCurrency: string;
  buyerLanguage?: string | null;
  siteLanguage?: string | null;
  taxIncludedInPrices: boolean;
  weightUnit: EcomWeightUnit;
  checkoutId?: string | null;
  appliedDiscounts: CartDiscountInfo[];
  createdDate: IsoDate;
  updatedDate: IsoDate;
  contactInfo?: AddressWithContact | null;
  overrideCheckoutUrl?: string | null;
  selectedShippingOption?: SelectedShippingOption | null;
  businessLocationId?: string | null;
}

// ---- calculated totals (estimate totals, checkout) ----

export interface TaxRateBreakdown { name: string; rate: string; tax: MultiCurrencyPrice }
export interface TaxBreakdown {
  jurisdiction: string; jurisdictionType: string; taxName: string; taxType: string | null; rate: string;
  taxableAmount: MultiCurrencyPrice; taxAmount: MultiCurrencyPrice;
}
export interface ItemTaxFullDetails { taxableAmount: MultiCurrencyPrice; taxRate: string; totalTax: MultiCurrencyPrice; rateBreakdown: TaxRateBreakdown[]; taxBreakdown: TaxBreakdown[] }
export interface LineItemPricesData {
  price: MultiCurrencyPrice; fullPrice: MultiCurrencyPrice; priceBeforeDiscounts: MultiCurrencyPrice; lineItemPrice: MultiCurrencyPrice;
  totalDiscount: MultiCurrencyPrice; totalPriceBeforeTax: MultiCurrencyPrice; totalPriceAfterTax: MultiCurrencyPrice; taxDetails: ItemTaxFullDetails;
}
export interface CalculatedLineItem { lineItemId: string; pricesBreakdown: LineItemPricesData; paymentOption: PaymentOptionType; taxableAddress: { addressType: string } }
export interface PriceSummary { subtotal: MultiCurrencyPrice; discount: MultiCurrencyPrice; shipping: MultiCurrencyPrice; tax: MultiCurrencyPrice; additionalFees: MultiCurrencyPrice; total: MultiCurrencyPrice }
export interface AggregatedTaxBreakdown {
  taxName: string; taxType: string | null; jurisdiction: string; jurisdictionTypeEnum: string; rate: string;
  aggregatedTaxAmount: MultiCurrencyPrice; aggregatedTaxableAmount: MultiCurrencyPrice;
}
export interface TaxSummary {
  taxableAmount: MultiCurrencyPrice; totalTax: MultiCurrencyPrice; taxIncludedInPrice: boolean;
  calculationDetails: { rateType: string; manualRateReason?: string };
  aggregatedTaxBreakdown: AggregatedTaxBreakdown[];
}
export interface AppliedDiscount {
  discountType: 'GLOBAL' | 'SPECIFIC_ITEMS' | 'SHIPPING';
  coupon?: { id: string; code: string; name: string; amount: MultiCurrencyPrice };
  merchantDiscount?: { amount: MultiCurrencyPrice; percentage?: number | null };
  discountRule?: { id: string; name: { original: string }; amount: MultiCurrencyPrice };
  lineItemIds: string[];
  lineItemDiscounts: { id: string; totalDiscountAmount: MultiCurrencyPrice }[];
}
export interface DeliveryLogistics {
  deliveryTime?: string | null;
  deliveryTimeSlot?: { from: IsoDate; to: IsoDate } | null;
  instructions?: string | null;
  pickupDetails?: { address: EcomAddress; businessLocation: boolean; pickupMethod: 'STORE_PICKUP' | 'PICKUP_POINT' } | null;
}
export interface CarrierShippingOption {
  code: string; title: string; logistics: DeliveryLogistics;
  cost: { price: MultiCurrencyPrice; otherCharges: { type: string; price: MultiCurrencyPrice; details?: string | null }[] };
}
export interface SelectedCarrierServiceOption {
  code: string; title: string; logistics: DeliveryLogistics; requestedShippingOption: boolean;
  cost: { price: MultiCurrencyPrice; totalDiscount: MultiCurrencyPrice; totalPriceBeforeTax: MultiCurrencyPrice; totalPriceAfterTax: MultiCurrencyPrice; taxDetails: ItemTaxFullDetails };
}
export interface ShippingInformation {
  region?: { id: string; name: string } | null;
  selectedCarrierServiceOption?: SelectedCarrierServiceOption | null;
  carrierServiceOptions: { carrierId: string; shippingOptions: CarrierShippingOption[] }[];
}
export interface ErrorDetails { applicationError: { code: string; description: string; data: Record<string, unknown> } }
export interface CalculationErrors {
  generalShippingCalculationError?: ErrorDetails; selectedShippingOptionError?: ErrorDetails; couponCalculationError?: ErrorDetails;
  discountsCalculationError?: ErrorDetails; taxCalculationError?: ErrorDetails; giftCardCalculationError?: ErrorDetails;
}
export interface Violation {
  severity: 'WARNING' | 'ERROR';
  target: { lineItem?: { name: 'LINE_ITEM_DEFAULT'; id: string; suggestedFix?: 'REMOVE_LINE_ITEM' }; other?: { name: 'OTHER_DEFAULT' } };
  description: string;
}
export interface AdditionalFee {
  code: string; name: string; price: MultiCurrencyPrice; priceBeforeTax: MultiCurrencyPrice; priceAfterTax: MultiCurrencyPrice;
  taxDetails: ItemTaxFullDetails; lineItemIds: string[]; source: string;
}
export interface MembershipOptions { eligibleMemberships: unknown[]; invalidMemberships: unknown[]; selectedMemberships: { memberships: unknown[] } }

export interface EstimateTotalsResponse {
  cart: Cart;
  calculatedLineItems: CalculatedLineItem[];
  priceSummary: PriceSummary;
  payNow: PriceSummary;
  payLater: PriceSummary;
  taxSummary: TaxSummary;
  shippingInfo: ShippingInformation;
  appliedDiscounts: AppliedDiscount[];
  calculationErrors: CalculationErrors;
  weightUnit: EcomWeightUnit;
  currency: string;
  membershipOptions: MembershipOptions;
  additionalFees: AdditionalFee[];
  violations: Violation[];
}

export interface CheckoutLineItem extends CartLineItem {
  totalPriceBeforeTax: MultiCurrencyPrice;
  totalPriceAfterTax: MultiCurrencyPrice;
  taxDetails: ItemTaxFullDetails;
  discount: MultiCurrencyPrice;
  totalDiscount: MultiCurrencyPrice;
  media?: LineImage;
}

export interface CheckoutShippingInfo extends ShippingInformation { shippingDestination?: AddressWithContact | null }

export interface Checkout {
  id: string;
  lineItems: CheckoutLineItem[];
  billingInfo?: AddressWithContact | null;
  shippingInfo: CheckoutShippingInfo;
  buyerNote?: string | null;
  buyerInfo: BuyerInfo;
  conversionCurrency: string;
  paymentCurrency: string;
  priceSummary: PriceSummary;
  payNow: PriceSummary;
  payLater: PriceSummary;
  calculationErrors: CalculationErrors;
  appliedDiscounts: AppliedDiscount[];
  customFields: { value: unknown; title: string; translatedTitle?: string | null }[];
  weightUnit: EcomWeightUnit;
  taxSummary: TaxSummary;
  currency: string;
  channelType: ChannelType;
  siteLanguage: string;
  buyerLanguage: string;
  completed: boolean;
  taxIncludedInPrice: boolean;
  createdBy: { visitorId?: string; memberId?: string; userId?: string; appId?: string };
  createdDate: IsoDate;
  updatedDate: IsoDate;
  membershipOptions: MembershipOptions;
  additionalFees: AdditionalFee[];
  cartId?: string | null;
  violations: Violation[];
  overrideCheckoutUrl?: string | null;
}

// ---- requests ----

export interface LineItemInput { id?: string | null; quantity?: number; catalogReference?: CatalogReference }
export interface CustomLineItemInput {
  id?: string | null;
  quantity: number;
  price: string;
  fullPrice?: string | null;
  priceDescription?: { original: string; translated?: string | null } | null;
  productName: { original: string; translated?: string | null };
  descriptionLines?: { name?: { original: string }; plainText?: { original: string } }[] | null;
  media?: { id?: string; url?: string; height?: number; width?: number; altText?: string | null } | null;
  url?: { relativePath?: string; url?: string | null } | null;
  itemType?: { preset?: ItemTypePreset; custom?: string } | null;
  taxGroupId?: string | null;
  physicalProperties?: { weight?: number | null; sku?: string | null; shippable?: boolean } | null;
  paymentOption?: PaymentOptionType | null;
  quantityAvailable?: number | null;
  catalogReference?: CatalogReference | null;
  rootCatalogItemId?: string | null;
}
export interface MerchantDiscountInput { amount?: string | null; percentage?: number | null; lineItemIds?: string[] | null }
export interface AddToCartRequest { lineItems?: LineItemInput[]; customLineItems?: CustomLineItemInput[]; businessLocationId?: string | null }
export interface CartInfoInput {
  buyerNote?: string | null;
  buyerLanguage?: string | null;
  contactInfo?: AddressWithContact | null;
  selectedShippingOption?: SelectedShippingOption | null;
  businessLocationId?: string | null;
  overrideCheckoutUrl?: string | null;
  buyerInfo?: { email?: string | null } | null;
}
export interface UpdateCartRequest {
  cartInfo?: CartInfoInput | null;
  couponCode?: string | null;
  merchantDiscounts?: MerchantDiscountInput[] | null;
  lineItems?: LineItemInput[];
  customLineItems?: CustomLineItemInput[];
}
export interface LineItemQuantityInput { id: string; quantity: number }
export interface EstimateTotalsRequest {
  selectedShippingOption?: SelectedShippingOption | null;
  shippingAddress?: EcomAddress | null;
  billingAddress?: EcomAddress | null;
  selectedMemberships?: { memberships?: { id: string; appId: string; lineItemIds?: string[] }[] } | null;
  calculateTax?: boolean | null;
  calculateShipping?: boolean | null;
  calculateAdditionalFees?: boolean | null;
}
export interface CreateCheckoutFromCartRequest {
  channelType?: ChannelType | null;
  shippingAddress?: EcomAddress | null;
  billingAddress?: EcomAddress | null;
  selectedShippingOption?: SelectedShippingOption | null;
  email?: string | null;
}

export interface CheckoutInfoInput {
  billingInfo?: AddressWithContact | null;
  shippingInfo?: { shippingDestination?: AddressWithContact | null; selectedCarrierServiceOption?: { code: string; carrierId?: string | null } | null } | null;
  buyerNote?: string | null;
  buyerInfo?: { email?: string | null } | null;
  buyerLanguage?: string | null;
  customFields?: { value: unknown; title: string; translatedTitle?: string | null }[] | null;
  channelType?: ChannelType | null;
}
export interface CreateCheckoutRequest {
  checkoutInfo?: CheckoutInfoInput | null;
  couponCode?: string | null;
  lineItems?: LineItemInput[];
  customLineItems?: CustomLineItemInput[];
  channelType: ChannelType;
  giftCardCode?: string | null;
  overrideCheckoutUrl?: string | null;
}
export interface UpdateCheckoutRequest {
  checkout: CheckoutInfoInput;
  couponCode?: string | null;
  giftCardCode?: string | null;
  overrideCheckoutUrl?: string | null;
  lineItems?: LineItemInput[];
  customLineItems?: CustomLineItemInput[];
}

// ---- answers ----
export interface CartResponse { cart: Cart }
export interface CheckoutResponse { checkout: Checkout }
export interface CreateCheckoutFromCartResponse { checkoutId: string }
export interface CheckoutUrlResponse { checkoutUrl: string }
export interface CreateOrderResponse { orderId: string; subscriptionId?: string; paymentGatewayOrderId?: string }
export interface CreateOrderAndChargeResponse extends CreateOrderResponse { paymentResponseToken?: string | null }
