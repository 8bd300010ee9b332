/**
 * The stored entities of the pricing rules, as services and the store share them. Wire shapes come
 * from `@vitrine/types` (ecom-rules); records add what only the server keeps (numeric revisions).
 */
import type {
  ActiveTimeInfo, CheckoutSettings, CouponSpecification, DiscountTrigger, DiscountValue, JurisdictionType, PricingAddress,
  ShippingDestination, ShippingOption, TaxableAddressType,
} from '@vitrine/types/ecom-rules';

import { DEFAULT_ROUNDING_MODE, type RoundingMode } from '../pricing/index.js';

export type * from '@vitrine/types/ecom-rules';

export interface DiscountRuleRecord {
  id: string;
  name: string;
  active: boolean;
  trigger: DiscountTrigger | null;
  activeTimeInfo: ActiveTimeInfo | null;
  discounts: { values: DiscountValue[] };
  usageCount: number;
  revision: number;
  createdDate: string;
  updatedDate: string;
}

export interface TaxGroupRecord { id: string; name: string; revision: number; createdDate: string; updatedDate: string }

export interface TaxRegionRecord {
  id: string;
  country: string;
  subdivision: string;
  appId: string;
  taxIncludedInPrice: boolean;
  revision: number;
  createdDate: string;
  updatedDate: string;
}

export interface ManualRateRecord {
  id: string;
  taxRegionId: string;
  taxGroupId: string | null;
  taxRate: string;
  taxName: string;
  taxType: string | null;
  jurisdiction: string;
  jurisdictionType: JurisdictionType;
}

export interface CouponRecord {
  id: string;
  specification: CouponSpecification;
  numberOfUsages: number;
  createdDate: string;
  updatedDate: string;
}

export interface ShippingRegionRecord {
  id: string;
  name: string;
  destinations: ShippingDestination[];
  options: ShippingOption[];
  revision: number;
  createdDate: string;
  updatedDate: string;
}

/** Site-wide pricing settings that are no entity of their own. */
export interface PricingSettings {
  taxableAddressType: TaxableAddressType;
  taxShipping: boolean;
  businessAddress: PricingAddress | null;
  /** Absent in rows stored before the setting existed: the engine's default then. */
  roundingMode?: RoundingMode;
}

export const DEFAULT_PRICING_SETTINGS: PricingSettings = { taxableAddressType: 'SHIPPING', taxShipping: true, businessAddress: null, roundingMode: DEFAULT_ROUNDING_MODE };

export type StoredCheckoutSettings = Omit<CheckoutSettings, 'createdDate' | 'updatedDate'>;

export interface SiteSettingsRecord {
  checkout: StoredCheckoutSettings;
  pricing: PricingSettings;
  createdDate: string | null;
  updatedDate: string | null;
}
