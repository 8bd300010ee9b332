/**
 * Store-settings hooks over `@vitrine/sdk/ecom` for the dashboard's Settings: discount rules,
 * coupons, shipping regions, tax groups and regions, checkout and order settings. Every key lives
 * under `['vitrine', 'storeSettings']`, so `queryKeys.all` covers them and each write refreshes its list.
 */
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { bindModule } from '@vitrine/sdk';
import { checkoutSettings, coupons, discountRules, ordersSettings, shippingRegions, taxGroups, taxRegions } from '@vitrine/sdk/ecom';
import { useVitrineMutation } from './mutation.js';
import { useVitrineClient } from './provider.js';

const SETTINGS = ['vitrine', 'storeSettings'] as const;
/** Most rules, coupons, groups or regions one Settings list shows (the server caps a query page at 100). */
export const SETTINGS_LIST_MAX = 100;

export const storeSettingsKeys = {
  all: SETTINGS,
  discountRules: () => [...SETTINGS, 'discountRules'] as const,
  coupons: () => [...SETTINGS, 'coupons'] as const,
  shippingRegions: () => [...SETTINGS, 'shippingRegions'] as const,
  taxGroups: () => [...SETTINGS, 'taxGroups'] as const,
  taxRegions: () => [...SETTINGS, 'taxRegions'] as const,
  checkout: () => [...SETTINGS, 'checkout'] as const,
  orders: () => [...SETTINGS, 'orders'] as const,
};

export function useDiscountRules(): UseQueryResult<discountRules.DiscountRule[]> {
  const client = useVitrineClient();
  return useQuery({ queryKey: storeSettingsKeys.discountRules(), queryFn: async () => (await bindModule(discountRules, client).queryDiscountRules().limit(SETTINGS_LIST_MAX).find()).items });
}
export const useCreateDiscountRule = () =>
  useVitrineMutation((client, rule: discountRules.DiscountRuleInput) => bindModule(discountRules, client).createDiscountRule(rule), () => [storeSettingsKeys.discountRules()]);
/** `mutate({ _id, revision, active })`: turns a rule on or off (the revision it was read with). */
export const useSetDiscountRuleActive = () =>
  useVitrineMutation((client, v: { _id: string; revision: string; active: boolean }) =>
    bindModule(discountRules, client).updateDiscountRule(v._id, { revision: v.revision, active: v.active }), () => [storeSettingsKeys.discountRules()]);
/** `mutate({ _id, rule })`: changes a rule (`rule.revision` is the one last read; a rule changed meanwhile is refused). */
export const useUpdateDiscountRule = () =>
  useVitrineMutation((client, v: { _id: string; rule: discountRules.DiscountRuleInput & { revision: string } }) =>
    bindModule(discountRules, client).updateDiscountRule(v._id, v.rule), () => [storeSettingsKeys.discountRules()]);
export const useDeleteDiscountRule = () =>
  useVitrineMutation((client, id: string) => bindModule(discountRules, client).deleteDiscountRule(id), () => [storeSettingsKeys.discountRules()]);

export function useCoupons(): UseQueryResult<coupons.Coupon[]> {
  const client = useVitrineClient();
  return useQuery({ queryKey: storeSettingsKeys.coupons(), queryFn: async () => (await bindModule(coupons, client).queryCoupons().limit(SETTINGS_LIST_MAX).find()).items });
}
export const useCreateCoupon = () =>
  useVitrineMutation((client, spec: coupons.CouponSpecification) => bindModule(coupons, client).createCoupon(spec), () => [storeSettingsKeys.coupons()]);
/** `mutate({ _id, active })`: turns a coupon on or off. */
export const useSetCouponActive = () =>
  useVitrineMutation((client, v: { _id: string; active: boolean }) => bindModule(coupons, client).updateCoupon(v._id, { active: v.active }), () => [storeSettingsKeys.coupons()]);
/** `mutate({ _id, specification })`: changes a coupon's terms (a discount field replaces the old discount; null clears a term). */
export const useUpdateCoupon = () =>
  useVitrineMutation((client, v: { _id: string; specification: coupons.CouponSpecificationChanges }) =>
    bindModule(coupons, client).updateCoupon(v._id, v.specification), () => [storeSettingsKeys.coupons()]);
export const useDeleteCoupon = () =>
  useVitrineMutation((client, id: string) => bindModule(coupons, client).deleteCoupon(id), () => [storeSettingsKeys.coupons()]);

export function useShippingRegions(): UseQueryResult<shippingRegions.ShippingRegion[]> {
  const client = useVitrineClient();
  return useQuery({ queryKey: storeSettingsKeys.shippingRegions(), queryFn: async () => (await bindModule(shippingRegions, client).listShippingRegions()).shippingRegions });
}
export const useCreateShippingRegion = () =>
  useVitrineMutation((client, region: shippingRegions.ShippingRegionInput) => bindModule(shippingRegions, client).createShippingRegion(region), () => [storeSettingsKeys.shippingRegions()]);
export const useDeleteShippingRegion = () =>
  useVitrineMutation((client, id: string) => bindModule(shippingRegions, client).deleteShippingRegion(id), () => [storeSettingsKeys.shippingRegions()]);

export function useTaxGroups(): UseQueryResult<taxGroups.TaxGroup[]> {
  const client = useVitrineClient();
  return useQuery({ queryKey: storeSettingsKeys.taxGroups(), queryFn: async () => (await bindModule(taxGroups, client).queryTaxGroups().limit(SETTINGS_LIST_MAX).find()).items });
}
export const useCreateTaxGroup = () =>
  useVitrineMutation((client, name: string) => bindModule(taxGroups, client).createTaxGroup({ name }), () => [storeSettingsKeys.taxGroups()]);
export const useDeleteTaxGroup = () =>
  useVitrineMutation((client, id: string) => bindModule(taxGroups, client).deleteTaxGroup(id), () => [storeSettingsKeys.taxGroups(), storeSettingsKeys.taxRegions()]);

export function useTaxRegions(): UseQueryResult<taxRegions.TaxRegion[]> {
  const client = useVitrineClient();
  return useQuery({ queryKey: storeSettingsKeys.taxRegions(), queryFn: async () => (await bindModule(taxRegions, client).queryTaxRegions().limit(SETTINGS_LIST_MAX).find()).items });
}
/**
 * `mutate({ region, rate })`: creates the region, then gives it one rate for every tax group. Two
 * calls, so a refused rate deletes the region again: the owner never keeps a region that taxes nothing.
 */
export const useCreateTaxRegion = () =>
  useVitrineMutation(async (client, v: { region: taxRegions.TaxRegionInput; rate?: { taxRate: string; taxName: string } }) => {
    const regions = bindModule(taxRegions, client);
    const created = await regions.createTaxRegion(v.region);
    if (v.rate) {
      try {
        await regions.setManualRates(created._id, [v.rate]);
      } catch (error) {
        await regions.deleteTaxRegion(created._id).catch(() => undefined);
        throw error;
      }
    }
    return created;
  }, () => [storeSettingsKeys.taxRegions()]);
export const useDeleteTaxRegion = () =>
  useVitrineMutation((client, id: string) => bindModule(taxRegions, client).deleteTaxRegion(id), () => [storeSettingsKeys.taxRegions()]);

export function useCheckoutSettings(): UseQueryResult<checkoutSettings.CheckoutSettings> {
  const client = useVitrineClient();
  return useQuery({ queryKey: storeSettingsKeys.checkout(), queryFn: async () => (await bindModule(checkoutSettings, client).getCheckoutSettings()).checkoutSettings });
}
export const useUpdateCheckoutSettings = () =>
  useVitrineMutation((client, input: Parameters<typeof checkoutSettings.updateCheckoutSettings>[0]) =>
    bindModule(checkoutSettings, client).updateCheckoutSettings(input), () => [storeSettingsKeys.checkout()]);

export function useOrdersSettings(): UseQueryResult<ordersSettings.OrdersSettings> {
  const client = useVitrineClient();
  return useQuery({ queryKey: storeSettingsKeys.orders(), queryFn: async () => (await bindModule(ordersSettings, client).getOrdersSettings()).ordersSettings });
}
export const useUpdateOrdersSettings = () =>
  useVitrineMutation((client, input: Parameters<typeof ordersSettings.updateOrdersSettings>[0]) =>
    bindModule(ordersSettings, client).updateOrdersSettings(input), () => [storeSettingsKeys.orders()]);
