/** Every bound of the pricing rules, named once (docs/pricing-setup.md lists them). */

/** Rules, regions and coupons a site may hold: the cart loads all live rules and regions on every pricing. */
export const MAX_DISCOUNT_RULES = 200;
export const MAX_TAX_GROUPS = 200;
export const MAX_TAX_REGIONS = 500;
export const MAX_SHIPPING_REGIONS = 100;
export const MAX_COUPONS = 10_000;

/** Query page sizes. */
export const PAGE_DEFAULT = 50;
export const PAGE_MAX = 100;
export const SORT_FIELDS_MAX = 3;

/** Bulk create of tax regions. */
export const TAX_REGIONS_BULK_MAX = 100;
/** listDefaultTaxGroupsByAppIds. */
export const APP_IDS_MAX = 100;

/** Rule shape. */
export const RULE_NAME_MAX = 100;
export const RULE_DISCOUNT_VALUES_MAX = 10;
export const SCOPES_MAX = 20;
export const SCOPE_ITEM_IDS_MAX = 100;
export const TRIGGER_DEPTH_MAX = 4;
export const TRIGGER_CHILDREN_MAX = 10;
export const ELIGIBLE_MEMBERS_MAX = 100;

/** Tax. */
export const TAX_GROUP_NAME_MAX = 50;
export const MANUAL_RATES_PER_REGION_MAX = 50;
/** Manual rates of the whole site: the engine takes at most 2000 per pricing. */
export const MAX_MANUAL_RATES = 2000;
export const TAX_NAME_MAX = 100;
export const JURISDICTION_MAX = 100;

/** Coupons. */
export const COUPON_CODE_MAX = 20;
export const COUPON_NAME_MAX = 100;
/** Largest usage limit (a 32-bit counter). */
export const COUPON_USAGE_LIMIT_MAX = 1_000_000_000;

/** Shipping. */
export const SHIPPING_REGION_NAME_MAX = 100;
export const SHIPPING_DESTINATIONS_MAX = 250;
export const SHIPPING_SUBDIVISIONS_MAX = 100;
export const SHIPPING_OPTIONS_MAX = 20;
export const SHIPPING_RANGES_MAX = 20;
export const SHIPPING_TITLE_MAX = 100;
export const DELIVERY_HOURS_MAX = 24 * 365;

/** Checkout settings texts (policies) and short texts (colors, labels). */
export const POLICY_TEXT_MAX = 20_000;
export const SHORT_TEXT_MAX = 200;
