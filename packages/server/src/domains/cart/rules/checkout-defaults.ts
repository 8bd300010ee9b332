import type { StoredCheckoutSettings } from './model.js';

/** What a site's checkout settings are until the owner saves some: policies hidden, agreement checkbox shown. */
export const DEFAULT_CHECKOUT_SETTINGS: StoredCheckoutSettings = {
  checkoutPolicies: {
    termsAndConditions: { visible: false, content: '' },
    privacyPolicy: { visible: false, content: '' },
    returnPolicy: { visible: false, content: '' },
    digitalItemPolicy: { visible: false, content: '' },
    contactUs: { visible: false, content: '' },
    customPolicy: { visible: false, content: '', title: '' },
  },
  checkoutFields: {
    subscriptionCheckbox: { visible: true, checkedByDefault: false, splitByChannel: false },
    policyAgreementCheckbox: { visible: true, checkedByDefault: false },
    giftCardRedeemEnabled: false,
    mitEnabled: false,
    delayCaptureEnabled: false,
    captureBeforeExpiryEnabled: false,
  },
  checkoutBrand: {
    header: { logo: { size: 'MEDIUM', image: null }, alignment: 'CENTER', displayCheckoutLabel: true },
    global: {},
  },
  checkoutBillingFields: 'ALL_BILLING_FIELDS',
};
