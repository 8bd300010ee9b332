import { route, type RouteDef } from '../../../http/route.js';
import { bulkCreateTaxRegions, createTaxRegion, deleteTaxRegion, getManualRates, getTaxRegion, queryTaxRegions, setManualRates, updateTaxRegion } from './tax-regions.js';
import { createCoupon, deleteCoupon, getCoupon, queryCoupons, updateCoupon } from './coupons.js';
import { createDiscountRule, deleteDiscountRule, getDiscountRule, queryDiscountRules, updateDiscountRule } from './discount-rules.js';
import {
  presentCheckoutSettings, presentCoupon, presentDiscountRule, presentManualRate, presentShippingRegion, presentTaxGroup, presentTaxRegion, presentTaxSettings,
} from './present.js';
import {
  appIdsRequest, bulkCreateTaxRegionRequest, couponIdRequest, createCouponRequest, createDiscountRuleRequest, createShippingRegionRequest,
  createTaxGroupRequest, createTaxRegionRequest, discountRuleIdRequest, empty, queryRequest, setManualRatesRequest, shippingRegionIdRequest,
  taxGroupIdRequest, taxRegionIdRequest, updateCheckoutSettingsRequest, updateCouponRequest, updateDiscountRuleRequest, updateShippingRegionRequest,
  updateTaxGroupRequest, updateTaxRegionRequest, updateTaxSettingsRequest,
} from './schema.js';
import { readSiteSettings, updateCheckoutSettings, updateTaxSettings } from './settings.js';
import { createShippingRegion, deleteShippingRegion, getShippingRegion, listShippingRegions, updateShippingRegion } from './shipping.js';
import { createTaxGroup, defaultTaxGroupsByAppIds, deleteTaxGroup, getTaxGroup, listDefaultTaxGroups, queryTaxGroups, updateTaxGroup } from './tax-groups.js';

/**
 * Owner APIs of the pricing rules. Every write is `elevated` (owner key or app). Reads are `elevated`
 * too: buyers never need the admin lists, because the cart prices on the server from loadPricingSetup;
 * a visitor learns a coupon only by entering its code, and tax and shipping only as priced results.
 * The one visitor read is the checkout settings, which the storefront's checkout page shows (policies,
 * checkbox texts, logo).
 */

const DR = '/ecom/v1/discount-rules';
const TG = '/billing/v1/tax-groups';
const TR = '/billing/v1/tax-regions';
const CP = '/stores/v2/coupons';
const SR = '/ecom/v1/shipping-regions';
const tag = 'cart rules';

const discountRuleRoutes: RouteDef[] = [
  route({
    method: 'POST', path: DR, access: 'elevated', idempotent: true, tag, summary: 'Create a discount rule', request: createDiscountRuleRequest,
    handler: async (ctx, input) => ({ discountRule: presentDiscountRule(await createDiscountRule(ctx, input.discountRule)) }),
  }),
  route({
    method: 'POST', path: `${DR}/query`, access: 'elevated', tag, summary: 'Query discount rules (filter, sort, cursor paging)', request: queryRequest,
    handler: async (ctx, input) => {
      const page = await queryDiscountRules(ctx, input.query);
      const now = new Date();
      return { discountRules: page.items.map((r) => presentDiscountRule(r, now)), pagingMetadata: page.pagingMetadata };
    },
  }),
  route({
    method: 'GET', path: `${DR}/:discountRuleId`, access: 'elevated', tag, summary: 'A discount rule', request: discountRuleIdRequest,
    handler: async (ctx, input) => ({ discountRule: presentDiscountRule(await getDiscountRule(ctx, input.discountRuleId)) }),
  }),
  route({
    method: 'PATCH', path: `${DR}/:discountRuleId`, access: 'elevated', tag, summary: 'Update a discount rule (revision required)', request: updateDiscountRuleRequest,
    handler: async (ctx, input) => ({ discountRule: presentDiscountRule(await updateDiscountRule(ctx, input.discountRuleId, input.discountRule)) }),
  }),
  route({
    method: 'DELETE', path: `${DR}/:discountRuleId`, access: 'elevated', tag, summary: 'Delete a discount rule', request: discountRuleIdRequest,
    handler: async (ctx, input) => { await deleteDiscountRule(ctx, input.discountRuleId); return {}; },
  }),
];

const taxGroupRoutes: RouteDef[] = [
  route({
    method: 'POST', path: TG, access: 'elevated', idempotent: true, tag, summary: 'Create a tax group', request: createTaxGroupRequest,
    handler: async (ctx, input) => ({ taxGroup: presentTaxGroup(await createTaxGroup(ctx, input.taxGroup)) }),
  }),
  route({
    method: 'GET', path: `${TG}/default-tax-groups`, access: 'elevated', tag, summary: 'The system-defined tax groups', request: empty,
    handler: async () => ({ taxGroups: listDefaultTaxGroups().map(presentTaxGroup) }),
  }),
  route({
    method: 'POST', path: `${TG}/list-default-tax-groups-by-app-ids`, access: 'elevated', tag, summary: 'The default tax group of each app', request: appIdsRequest,
    handler: async (_ctx, input) => defaultTaxGroupsByAppIds(input.appIds),
  }),
  route({
    method: 'POST', path: `${TG}/query`, access: 'elevated', tag, summary: 'Query the site\'s tax groups', request: queryRequest,
    handler: async (ctx, input) => {
      const page = await queryTaxGroups(ctx, input.query);
      return { taxGroups: page.items.map(presentTaxGroup), pagingMetadata: page.pagingMetadata };
    },
  }),
  route({
    method: 'GET', path: `${TG}/:taxGroupId`, access: 'elevated', tag, summary: 'A tax group (the site\'s or a default one)', request: taxGroupIdRequest,
    handler: async (ctx, input) => ({ taxGroup: presentTaxGroup(await getTaxGroup(ctx, input.taxGroupId)) }),
  }),
  route({
    method: 'PATCH', path: `${TG}/:taxGroupId`, access: 'elevated', tag, summary: 'Rename a tax group (revision required)', request: updateTaxGroupRequest,
    handler: async (ctx, input) => ({ taxGroup: presentTaxGroup(await updateTaxGroup(ctx, input.taxGroupId, input.taxGroup)) }),
  }),
  route({
    method: 'DELETE', path: `${TG}/:taxGroupId`, access: 'elevated', tag, summary: 'Delete a tax group and its manual rates', request: taxGroupIdRequest,
    handler: async (ctx, input) => { await deleteTaxGroup(ctx, input.taxGroupId); return {}; },
  }),
];

const taxRegionRoutes: RouteDef[] = [
  route({
    method: 'POST', path: TR, access: 'elevated', idempotent: true, tag, summary: 'Create a tax region', request: createTaxRegionRequest,
    handler: async (ctx, input) => ({ taxRegion: presentTaxRegion(await createTaxRegion(ctx, input.taxRegion)) }),
  }),
  route({
    method: 'POST', path: '/billing/v1/bulk/tax-regions/create', access: 'elevated', idempotent: true, tag, summary: 'Create several tax regions (per-item results)',
    request: bulkCreateTaxRegionRequest,
    handler: async (ctx, input) => {
      const outcomes = await bulkCreateTaxRegions(ctx, input.taxRegions);
      const results = outcomes.map((o, originalIndex) => ('region' in o
        ? { itemMetadata: { id: o.region.id, originalIndex, success: true }, ...(input.returnEntity ? { item: presentTaxRegion(o.region) } : {}) }
        : { itemMetadata: { originalIndex, success: false, error: o.error } }));
      const ok = results.filter((r) => r.itemMetadata.success).length;
      return { results, bulkActionMetadata: { totalSuccesses: ok, totalFailures: results.length - ok, undetailedFailures: 0 } };
    },
  }),
  route({
    method: 'POST', path: `${TR}/query`, access: 'elevated', tag, summary: 'Query tax regions', request: queryRequest,
    handler: async (ctx, input) => {
      const page = await queryTaxRegions(ctx, input.query);
      return { taxRegions: page.items.map(presentTaxRegion), pagingMetadata: page.pagingMetadata };
    },
  }),
  route({
    method: 'GET', path: `${TR}/:taxRegionId`, access: 'elevated', tag, summary: 'A tax region', request: taxRegionIdRequest,
    handler: async (ctx, input) => ({ taxRegion: presentTaxRegion(await getTaxRegion(ctx, input.taxRegionId)) }),
  }),
  route({
    method: 'PATCH', path: `${TR}/:taxRegionId`, access: 'elevated', tag, summary: 'Update a tax region (revision required)', request: updateTaxRegionRequest,
    handler: async (ctx, input) => ({ taxRegion: presentTaxRegion(await updateTaxRegion(ctx, input.taxRegionId, input.taxRegion)) }),
  }),
  route({
    method: 'DELETE', path: `${TR}/:taxRegionId`, access: 'elevated', tag, summary: 'Delete a tax region and its manual rates', request: taxRegionIdRequest,
    handler: async (ctx, input) => { await deleteTaxRegion(ctx, input.taxRegionId); return {}; },
  }),
  // Vitrine extensions: a region's manual rates, and the site's tax settings.
  route({
    method: 'GET', path: `${TR}/:taxRegionId/manual-rates`, access: 'elevated', tag, summary: 'Manual tax rates of a region (Vitrine extension)', request: taxRegionIdRequest,
    handler: async (ctx, input) => ({ taxRegionId: input.taxRegionId, manualRates: (await getManualRates(ctx, input.taxRegionId)).map(presentManualRate) }),
  }),
  route({
    method: 'PUT', path: `${TR}/:taxRegionId/manual-rates`, access: 'elevated', tag, summary: 'Replace the manual tax rates of a region (Vitrine extension)', request: setManualRatesRequest,
    handler: async (ctx, input) => ({ taxRegionId: input.taxRegionId, manualRates: (await setManualRates(ctx, input.taxRegionId, input.manualRates)).map(presentManualRate) }),
  }),
  route({
    method: 'GET', path: '/billing/v1/tax-settings', access: 'elevated', tag, summary: 'Tax settings of the site (Vitrine extension)', request: empty,
    handler: async (ctx) => ({ taxSettings: presentTaxSettings((await readSiteSettings(ctx)).pricing) }),
  }),
  route({
    method: 'PATCH', path: '/billing/v1/tax-settings', access: 'elevated', tag, summary: 'Update the tax settings (Vitrine extension)', request: updateTaxSettingsRequest,
    handler: async (ctx, input) => ({ taxSettings: presentTaxSettings(await updateTaxSettings(ctx, input.taxSettings)) }),
  }),
];

const checkoutSettingsRoutes: RouteDef[] = [
  route({
    method: 'GET', path: '/ecom/v1/checkout-settings', access: 'visitor', tag, summary: 'Checkout settings (the checkout page shows them)', request: empty,
    handler: async (ctx) => {
      const s = await readSiteSettings(ctx);
      return { checkoutSettings: presentCheckoutSettings(s.checkout, s) };
    },
  }),
  route({
    method: 'PATCH', path: '/ecom/v1/checkout-settings', access: 'elevated', tag, summary: 'Update checkout settings (merged group by group)', request: updateCheckoutSettingsRequest,
    handler: async (ctx, input) => ({ checkoutSettings: await updateCheckoutSettings(ctx, input.checkoutSettings) }),
  }),
];

const couponRoutes: RouteDef[] = [
  route({
    method: 'POST', path: CP, access: 'elevated', idempotent: true, tag, summary: 'Create a coupon (Vitrine extension)', request: createCouponRequest,
    handler: async (ctx, input) => {
      const coupon = await createCoupon(ctx, input.specification);
      return { id: coupon.id, coupon: presentCoupon(coupon, ctx.site.currency) };
    },
  }),
  route({
    method: 'POST', path: `${CP}/query`, access: 'elevated', tag, summary: 'Query coupons (Vitrine extension)', request: queryRequest,
    handler: async (ctx, input) => {
      const page = await queryCoupons(ctx, input.query);
      const now = new Date();
      return { coupons: page.items.map((c) => presentCoupon(c, ctx.site.currency, now)), pagingMetadata: page.pagingMetadata };
    },
  }),
  route({
    method: 'GET', path: `${CP}/:id`, access: 'elevated', tag, summary: 'A coupon (Vitrine extension)', request: couponIdRequest,
    handler: async (ctx, input) => ({ coupon: presentCoupon(await getCoupon(ctx, input.id), ctx.site.currency) }),
  }),
  route({
    method: 'PATCH', path: `${CP}/:id`, access: 'elevated', tag, summary: 'Update a coupon (Vitrine extension)', request: updateCouponRequest,
    handler: async (ctx, input) => ({ coupon: presentCoupon(await updateCoupon(ctx, input.id, input.specification), ctx.site.currency) }),
  }),
  route({
    method: 'DELETE', path: `${CP}/:id`, access: 'elevated', tag, summary: 'Delete a coupon (Vitrine extension)', request: couponIdRequest,
    handler: async (ctx, input) => { await deleteCoupon(ctx, input.id); return {}; },
  }),
];

const shippingRoutes: RouteDef[] = [
  route({
    method: 'POST', path: SR, access: 'elevated', idempotent: true, tag, summary: 'Create a shipping region (Vitrine extension)', request: createShippingRegionRequest,
    handler: async (ctx, input) => ({ shippingRegion: presentShippingRegion(await createShippingRegion(ctx, input.shippingRegion)) }),
  }),
  route({
    method: 'GET', path: SR, access: 'elevated', tag, summary: 'Every shipping region of the site (Vitrine extension)', request: empty,
    handler: async (ctx) => ({ shippingRegions: (await listShippingRegions(ctx)).map(presentShippingRegion) }),
  }),
  route({
    method: 'GET', path: `${SR}/:shippingRegionId`, access: 'elevated', tag, summary: 'A shipping region (Vitrine extension)', request: shippingRegionIdRequest,
    handler: async (ctx, input) => ({ shippingRegion: presentShippingRegion(await getShippingRegion(ctx, input.shippingRegionId)) }),
  }),
  route({
    method: 'PATCH', path: `${SR}/:shippingRegionId`, access: 'elevated', tag, summary: 'Update a shipping region (revision required; Vitrine extension)', request: updateShippingRegionRequest,
    handler: async (ctx, input) => ({ shippingRegion: presentShippingRegion(await updateShippingRegion(ctx, input.shippingRegionId, input.shippingRegion)) }),
  }),
  route({
    method: 'DELETE', path: `${SR}/:shippingRegionId`, access: 'elevated', tag, summary: 'Delete a shipping region (Vitrine extension)', request: shippingRegionIdRequest,
    handler: async (ctx, input) => { await deleteShippingRegion(ctx, input.shippingRegionId); return {}; },
  }),
];

export const cartRulesRoutes: RouteDef[] = [
  ...discountRuleRoutes, ...taxGroupRoutes, ...taxRegionRoutes, ...checkoutSettingsRoutes, ...couponRoutes, ...shippingRoutes,
];
