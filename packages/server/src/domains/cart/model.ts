/**
 * What the cart domain stores and works with. A stored line says WHAT the buyer wants (a catalog
 * reference and a quantity, or a custom line an owner priced); `ResolvedLine` is that line looked up in
 * the catalog and inventory at calculation time, which is where every catalog price comes from.
 */
import type {
  AddressWithContact, CatalogReference, ChannelType, CustomLineItemInput, DescriptionLine, EcomAddress, ItemAvailabilityStatus, LineImage,
  LinePhysicalProperties, MerchantDiscountInput, PaymentOptionType, SelectedShippingOption, SubscriptionOptionInfo,
} from '@vitrine/types/ecom-cart';
import type { ItemType } from './pricing/index.js';

export type {
  AddressWithContact, CatalogReference, ChannelType, CustomLineItemInput, EcomAddress, MerchantDiscountInput, SelectedShippingOption,
} from '@vitrine/types/ecom-cart';

/** The store catalog's app id, used by catalog references of both catalog versions. */
export const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';

export interface BuyerRef { visitorId?: string; memberId?: string; userId?: string }

export interface StoredLine {
  id: string;
  quantity: number;
  catalogReference?: CatalogReference;
  /** Set only for custom lines (added by an owner or app): the price and details they gave. */
  custom?: CustomLineItemInput;
}

export interface CartDoc {
  lineItems: StoredLine[];
  buyer: BuyerRef;
  email: string | null;
  buyerNote: string | null;
  buyerLanguage: string | null;
  contactInfo: AddressWithContact | null;
  selectedShippingOption: SelectedShippingOption | null;
  businessLocationId: string | null;
  overrideCheckoutUrl: string | null;
  coupon: { id: string; code: string } | null;
  merchantDiscounts: MerchantDiscountInput[];
  checkoutId: string | null;
}

export interface StoredCart { id: string; ownerKey: string; doc: CartDoc; revision: number; createdDate: string; updatedDate: string }

export interface CheckoutDoc {
  lineItems: StoredLine[];
  buyer: BuyerRef;
  email: string | null;
  buyerNote: string | null;
  buyerLanguage: string | null;
  billingInfo: AddressWithContact | null;
  shippingDestination: AddressWithContact | null;
  selectedShippingOption: SelectedShippingOption | null;
  coupon: { id: string; code: string } | null;
  merchantDiscounts: MerchantDiscountInput[];
  channelType: ChannelType;
  customFields: { value: unknown; title: string; translatedTitle?: string | null }[];
  overrideCheckoutUrl: string | null;
  /** Bearer capability of the hosted checkout page and the completion redirect (random, per checkout). */
  pageToken: string;
  /** Where the completion redirect sends the buyer (the thank-you URL of the redirect session that opened the page). */
  thankYouPageUrl: string | null;
}

export interface StoredCheckout {
  id: string; ownerKey: string; cartId: string | null; doc: CheckoutDoc; completed: boolean; orderId: string | null; createdDate: string; updatedDate: string;
  /**
   * The checkout as answered when it completed (its wire JSON), so that it keeps the prices it was
   * bought at; null while open (and for checkouts completed before this was kept: those are priced now).
   */
  completedView: string | null;
}

/** A line as priced now: catalog data (or the custom line's own) plus availability. */
export interface ResolvedLine {
  id: string;
  quantity: number;
  catalogReference?: CatalogReference;
  productName: string;
  url?: { relativePath: string; url: string };
  /** Unit price and compare-at price, decimal text in the site currency. */
  price: string;
  fullPrice: string;
  descriptionLines: DescriptionLine[];
  image?: LineImage;
  availability: { status: ItemAvailabilityStatus; quantityAvailable?: number | null };
  physicalProperties?: LinePhysicalProperties;
  itemType: ItemType;
  paymentOption: PaymentOptionType;
  rootCatalogItemId?: string | null;
  priceDescription?: string;
  taxGroupId?: string | null;
  customLineItem: boolean;
  /** Inventory item of the line (catalog lines with a known variant), for reservations at order time. */
  stock?: { productId: string; variantId: string };
  sku?: string | null;
  /** The V3 subscription the buyer chose for the line (catalogReference.options.subscriptionOptionId). */
  subscriptionOptionInfo?: SubscriptionOptionInfo;
}

export type Address = EcomAddress;
