/** Entity names of the outbox events the pricing rules write (the platform's names for the same entities). */
export const DISCOUNT_RULE_FQDN = 'wix.ecom.discounts.v1.discount_rule';
export const TAX_GROUP_FQDN = 'wix.billing.v1.tax_group';
export const TAX_REGION_FQDN = 'wix.billing.v1.tax_region';
export const CHECKOUT_SETTINGS_FQDN = 'wix.ecom.v1.checkout_settings';
