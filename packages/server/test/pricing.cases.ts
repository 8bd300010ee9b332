/**
 * Hand-computed pricing cases, as data. Each case is a full engine input and the exact amounts it must
 * produce; `pricing-cases.test.ts` replays them against `calculatePricing`, and once the cart routes
 * exist the same table can be replayed over HTTP (the inputs use the contract's field names).
 * Every expected amount below was worked out by hand; the comment on a case shows the arithmetic.
 */
import type {
  DiscountRuleInput, DiscountValue, ManualTaxMappingInput, PricingInput, PricingLineItem, Scope, ShippingRegionInput, TaxSettingsInput,
} from '../src/domains/cart/pricing/index.js';

export interface PricingCase {
  name: string;
  input: PricingInput;
  expected: {
    /** subtotal, discount, shipping, tax, additionalFees, total */
    priceSummary: [string, string, string, string, string, string];
    /** Per line: [totalDiscount, totalTax, totalPriceAfterTax]. */
    lines?: Record<string, [string, string, string]>;
    /** Applied discounts in order: [source id or code, discountType, amount]. */
    appliedDiscounts?: [string, string, string][];
    selectedShippingOption?: string | null;
    calculationErrors?: Record<string, string>;
    /** [severity, line id or 'other'] */
    violations?: [string, string][];
    /** Extra exact checks, as [dotted path into the result, value]. */
    paths?: [string, unknown][];
  };
}

export const NOW = '2026-06-01T12:00:00Z';
export const APP = 'stores-app';

const line = (id: string, price: string, quantity = 1, extra: Partial<PricingLineItem> = {}): PricingLineItem =>
  ({ id, price, quantity, itemType: 'DIGITAL', catalogReference: { appId: APP, catalogItemId: `p-${id}` }, ...extra });
const physical = (weight?: number): Partial<PricingLineItem> => ({ itemType: 'PHYSICAL', physicalProperties: { weight: weight ?? null } });
const cart = (lineItems: PricingLineItem[], extra: Partial<PricingInput> = {}): PricingInput => ({ currency: 'USD', now: NOW, lineItems, ...extra });
const items = (...ids: string[]): Scope[] => [{ type: 'CATALOG_ITEM', catalogItemFilter: { catalogAppId: APP, catalogItemIds: ids.map((i) => `p-${i}`) } }];

const pct = (percentage: number, targetType: DiscountValue['targetType'] = 'GLOBAL', scopes?: Scope[]): DiscountValue =>
  ({ targetType, discountType: 'PERCENTAGE', percentage, ...(scopes ? { specificItemsInfo: { scopes } } : {}) });
const off = (fixedAmount: string, targetType: DiscountValue['targetType'] = 'GLOBAL', scopes?: Scope[]): DiscountValue =>
  ({ targetType, discountType: 'FIXED_AMOUNT', fixedAmount, ...(scopes ? { specificItemsInfo: { scopes } } : {}) });
const fixedPrice = (price: string, targetType: DiscountValue['targetType'] = 'GLOBAL', scopes?: Scope[]): DiscountValue =>
  ({ targetType, discountType: 'FIXED_PRICE', fixedPrice: price, ...(scopes ? { specificItemsInfo: { scopes } } : {}) });
const rule = (id: string, value: DiscountValue, extra: Partial<DiscountRuleInput> = {}): DiscountRuleInput =>
  ({ id, name: `Rule ${id}`, discounts: { values: [value] }, ...extra });

const mapping = (id: string, taxRegionId: string, taxRate: string, taxGroupId: string | null = null, jurisdictionType: ManualTaxMappingInput['jurisdictionType'] = 'COUNTRY', jurisdiction = taxRegionId): ManualTaxMappingInput =>
  ({ id, taxRegionId, taxGroupId, taxRate, taxName: `Tax ${id}`, jurisdiction, jurisdictionType });
const US_TAX_10: TaxSettingsInput = { regions: [{ id: 'r-us', country: 'US', taxIncludedInPrice: false }], manualTaxMappings: [mapping('m-us', 'r-us', '0.1')] };
const DE_TAX: TaxSettingsInput = {
  regions: [{ id: 'r-de', country: 'DE', taxIncludedInPrice: true }],
  manualTaxMappings: [mapping('m-de', 'r-de', '0.19'), mapping('m-de-books', 'r-de', '0.07', 'books')],
};
const US_CA_TAX: TaxSettingsInput = {
  regions: [{ id: 'r-us', country: 'US', taxIncludedInPrice: false }, { id: 'r-us-ca', country: 'US', subdivision: 'CA', taxIncludedInPrice: false }],
  manualTaxMappings: [mapping('m-us', 'r-us', '0.04'), mapping('m-ca-state', 'r-us-ca', '0.06', null, 'STATE', 'CA'), mapping('m-ca-la', 'r-us-ca', '0.0125', null, 'COUNTY', 'Los Angeles')],
};
const US = { country: 'US', subdivision: 'NY' };
const CA = { country: 'US', subdivision: 'CA' };
const DE = { country: 'DE' };

const usShipping = (options: ShippingRegionInput['options']): ShippingRegionInput[] => [{ id: 'ship-us', name: 'United States', destinations: [{ country: 'US' }], options }];
const STANDARD = { code: 'standard', title: 'Standard', rate: { type: 'FLAT' as const, price: '5.00' } };
const EXPRESS = {
  code: 'express', title: 'Express', rate: { type: 'FLAT' as const, price: '15.00' }, deliveryWindow: { fromHours: 24, toHours: 72 },
  otherCharges: [{ type: 'HANDLING_FEE' as const, price: '2.00', details: 'Packing' }],
};
const AB = () => [line('a', '10.00', 2), line('b', '5.00', 1)];

export const PRICING_CASES: PricingCase[] = [
  {
    name: 'plain cart, unit and line prices',
    input: cart([line('a', '10.00', 2, { fullPrice: '12.00' })]),
    expected: {
      priceSummary: ['20.00', '0.00', '0.00', '0.00', '0.00', '20.00'],
      paths: [
        ['calculatedLineItems.0.pricesBreakdown.price.amount', '10.00'], ['calculatedLineItems.0.pricesBreakdown.fullPrice.amount', '12.00'],
        ['calculatedLineItems.0.pricesBreakdown.priceBeforeDiscounts.amount', '10.00'], ['calculatedLineItems.0.pricesBreakdown.lineItemPrice.amount', '20.00'],
      ],
    },
  },
  {
    name: 'global percentage rule split over lines', // 10% of 25.00 = 2.50; a 20/25 -> 2.00, b 0.50
    input: cart(AB(), { discountRules: [rule('r10', pct(10))] }),
    expected: { priceSummary: ['25.00', '2.50', '0.00', '0.00', '0.00', '22.50'], lines: { a: ['2.00', '0.00', '18.00'], b: ['0.50', '0.00', '4.50'] }, appliedDiscounts: [['r10', 'GLOBAL', '2.50']] },
  },
  {
    name: 'global fixed amount allocated by largest remainder', // 7.00: a 700*2000/2500 = 560, b 140
    input: cart(AB(), { discountRules: [rule('r7', off('7.00'))] }),
    expected: { priceSummary: ['25.00', '7.00', '0.00', '0.00', '0.00', '18.00'], lines: { a: ['5.60', '0.00', '14.40'], b: ['1.40', '0.00', '3.60'] } },
  },
  {
    name: 'fixed amount above the cart stops at zero',
    input: cart(AB(), { discountRules: [rule('r50', off('50.00'))] }),
    expected: { priceSummary: ['25.00', '25.00', '0.00', '0.00', '0.00', '0.00'] },
  },
  {
    name: 'global fixed price (bundle price)', // 25.00 -> 20.00
    input: cart(AB(), { discountRules: [rule('bundle', fixedPrice('20.00'))] }),
    expected: { priceSummary: ['25.00', '5.00', '0.00', '0.00', '0.00', '20.00'], appliedDiscounts: [['bundle', 'GLOBAL', '5.00']] },
  },
  {
    name: 'specific items percentage', // 20% of a (20.00) = 4.00
    input: cart(AB(), { discountRules: [rule('ra', pct(20, 'SPECIFIC_ITEMS', items('a')))] }),
    expected: { priceSummary: ['25.00', '4.00', '0.00', '0.00', '0.00', '21.00'], lines: { a: ['4.00', '0.00', '16.00'], b: ['0.00', '0.00', '5.00'] }, appliedDiscounts: [['ra', 'SPECIFIC_ITEMS', '4.00']] },
  },
  {
    name: 'specific items fixed amount is per unit', // 3.00 x 2
    input: cart(AB(), { discountRules: [rule('ra', off('3.00', 'SPECIFIC_ITEMS', items('a')))] }),
    expected: { priceSummary: ['25.00', '6.00', '0.00', '0.00', '0.00', '19.00'] },
  },
  {
    name: 'specific items fixed price is per unit', // a: 2 x 10.00 -> 2 x 7.50
    input: cart(AB(), { discountRules: [rule('ra', fixedPrice('7.50', 'SPECIFIC_ITEMS', items('a')))] }),
    expected: { priceSummary: ['25.00', '5.00', '0.00', '0.00', '0.00', '20.00'] },
  },
  {
    name: 'item discount then cart discount on the remainder', // a 20 -> 16; 10% of 21 = 2.10 (a 1.60, b 0.50)
    input: cart(AB(), { discountRules: [rule('cart10', pct(10)), rule('item20', pct(20, 'SPECIFIC_ITEMS', items('a')))] }),
    expected: {
      priceSummary: ['25.00', '6.10', '0.00', '0.00', '0.00', '18.90'], lines: { a: ['5.60', '0.00', '14.40'], b: ['0.50', '0.00', '4.50'] },
      appliedDiscounts: [['item20', 'SPECIFIC_ITEMS', '4.00'], ['cart10', 'GLOBAL', '2.10']],
    },
  },
  {
    name: 'two percentages compound', // 100 -> 90 -> 81
    input: cart([line('a', '100.00')], { discountRules: [rule('p1', pct(10)), rule('p2', pct(10))] }),
    expected: { priceSummary: ['100.00', '19.00', '0.00', '0.00', '0.00', '81.00'] },
  },
  {
    name: 'percentage applies before fixed amount whatever the ids', // 10% of 100 = 10, then 10 off
    input: cart([line('a', '100.00')], { discountRules: [rule('a-fixed', off('10.00')), rule('z-pct', pct(10))] }),
    expected: { priceSummary: ['100.00', '20.00', '0.00', '0.00', '0.00', '80.00'], appliedDiscounts: [['z-pct', 'GLOBAL', '10.00'], ['a-fixed', 'GLOBAL', '10.00']] },
  },
  {
    name: 'subtotal trigger not met',
    input: cart(AB(), { discountRules: [rule('big', pct(10), { trigger: { triggerType: 'SUBTOTAL_RANGE', subtotalRange: { from: '50.00' } } })] }),
    expected: { priceSummary: ['25.00', '0.00', '0.00', '0.00', '0.00', '25.00'], appliedDiscounts: [] },
  },
  {
    name: 'subtotal trigger bounds are inclusive',
    input: cart(AB(), { discountRules: [rule('edge', pct(10), { trigger: { triggerType: 'SUBTOTAL_RANGE', subtotalRange: { from: '25.00', to: '25.00' } } })] }),
    expected: { priceSummary: ['25.00', '2.50', '0.00', '0.00', '0.00', '22.50'] },
  },
  {
    name: 'OR trigger: quantity or member', // quantity 3 < 5 but member m1 is eligible; 10% of 30
    input: cart([line('a', '10.00', 3)], {
      buyer: { memberId: 'm1' },
      discountRules: [rule('or', pct(10), { trigger: { triggerType: 'OR', or: { triggers: [
        { triggerType: 'ITEM_QUANTITY_RANGE', itemQuantityRange: { from: 5 } },
        { triggerType: 'CUSTOMER_ELIGIBILITY', customerEligibility: { individualMembersInfo: { memberIds: ['m1'] } } },
      ] } } })],
    }),
    expected: { priceSummary: ['30.00', '3.00', '0.00', '0.00', '0.00', '27.00'] },
  },
  {
    name: 'AND trigger needs both',
    input: cart([line('a', '10.00', 3)], { discountRules: [rule('and', pct(10), { trigger: { triggerType: 'AND', and: { triggers: [
      { triggerType: 'SUBTOTAL_RANGE', subtotalRange: { from: '10.00' } },
      { triggerType: 'ITEM_QUANTITY_RANGE', itemQuantityRange: { from: 5 } },
    ] } } })] }),
    expected: { priceSummary: ['30.00', '0.00', '0.00', '0.00', '0.00', '30.00'] },
  },
  {
    name: 'rules outside their active time or switched off do not apply', // end is exclusive
    input: cart(AB(), { discountRules: [
      rule('ended', pct(10), { activeTimeInfo: { end: NOW } }),
      rule('future', pct(10), { activeTimeInfo: { start: '2026-06-01T12:00:01Z' } }),
      rule('off', pct(10), { active: false }),
      rule('live', pct(20), { activeTimeInfo: { start: NOW, end: '2026-07-01T00:00:00Z' } }),
    ] }),
    expected: { priceSummary: ['25.00', '5.00', '0.00', '0.00', '0.00', '20.00'], appliedDiscounts: [['live', 'GLOBAL', '5.00']] },
  },
  {
    name: 'coupon percentage with minimum met', // 15% of 25.00 = 3.75
    input: cart(AB(), { coupon: { id: 'c1', code: 'SAVE15', name: 'Save 15', discount: pct(15), minimumSubtotal: '20.00', remainingUses: 3 } }),
    expected: { priceSummary: ['25.00', '3.75', '0.00', '0.00', '0.00', '21.25'], appliedDiscounts: [['SAVE15', 'GLOBAL', '3.75']] },
  },
  {
    name: 'coupon limited to one item: one unit of the line with the highest unit price', // 50% of one 10.00 unit of a
    input: cart(AB(), { coupon: { id: 'c1', code: 'HALF1', name: 'Half one', discount: pct(50), limitedToOneItem: true } }),
    expected: { priceSummary: ['25.00', '5.00', '0.00', '0.00', '0.00', '20.00'], appliedDiscounts: [['HALF1', 'GLOBAL', '5.00']], lines: { a: ['5.00', '0.00', '15.00'], b: ['0.00', '0.00', '5.00'] } },
  },
  {
    name: 'coupon limited to one item: a fixed amount stops at that unit\'s price', // 12.00 off one 10.00 unit takes 10.00
    input: cart(AB(), { coupon: { id: 'c1', code: 'TWELVE', name: 'Twelve', discount: off('12.00'), limitedToOneItem: true } }),
    expected: { priceSummary: ['25.00', '10.00', '0.00', '0.00', '0.00', '15.00'], appliedDiscounts: [['TWELVE', 'GLOBAL', '10.00']], lines: { a: ['10.00', '0.00', '10.00'], b: ['0.00', '0.00', '5.00'] } },
  },
  {
    name: 'coupon limited to one item among its scoped items', // 20% of one 5.00 unit of b, though a costs more
    input: cart(AB(), { coupon: { id: 'c1', code: 'BONLY', name: 'B only', discount: pct(20, 'SPECIFIC_ITEMS', items('b')), limitedToOneItem: true } }),
    expected: { priceSummary: ['25.00', '1.00', '0.00', '0.00', '0.00', '24.00'], lines: { a: ['0.00', '0.00', '20.00'], b: ['1.00', '0.00', '4.00'] } },
  },
  {
    name: 'coupon limited to one item picks by unit price, not line total', // 4 x 6.00 (24.00) vs 1 x 7.00: 50% of 7.00
    input: cart([line('c', '6.00', 4), line('d', '7.00', 1)], { coupon: { id: 'c1', code: 'HALF2', name: 'Half', discount: pct(50), limitedToOneItem: true } }),
    expected: { priceSummary: ['31.00', '3.50', '0.00', '0.00', '0.00', '27.50'], lines: { c: ['0.00', '0.00', '24.00'], d: ['3.50', '0.00', '3.50'] } },
  },
  {
    name: 'coupon minimum subtotal not met',
    input: cart(AB(), { coupon: { id: 'c1', code: 'SAVE15', name: 'Save 15', discount: pct(15), minimumSubtotal: '30.00' } }),
    expected: { priceSummary: ['25.00', '0.00', '0.00', '0.00', '0.00', '25.00'], appliedDiscounts: [], calculationErrors: { couponCalculationError: 'COUPON_MINIMUM_SUBTOTAL_NOT_MET' } },
  },
  {
    name: 'expired coupon',
    input: cart(AB(), { coupon: { id: 'c1', code: 'OLD', name: 'Old', discount: pct(15), expirationTime: '2026-05-31T00:00:00Z' } }),
    expected: { priceSummary: ['25.00', '0.00', '0.00', '0.00', '0.00', '25.00'], calculationErrors: { couponCalculationError: 'COUPON_EXPIRED' } },
  },
  {
    name: 'coupon with no uses left',
    input: cart(AB(), { coupon: { id: 'c1', code: 'USED', name: 'Used', discount: pct(15), remainingUses: 0 } }),
    expected: { priceSummary: ['25.00', '0.00', '0.00', '0.00', '0.00', '25.00'], calculationErrors: { couponCalculationError: 'COUPON_USAGE_LIMIT_REACHED' } },
  },
  {
    name: 'coupon for items not in the cart',
    input: cart(AB(), { coupon: { id: 'c1', code: 'SHOES', name: 'Shoes', discount: pct(15, 'SPECIFIC_ITEMS', items('shoe')) } }),
    expected: { priceSummary: ['25.00', '0.00', '0.00', '0.00', '0.00', '25.00'], calculationErrors: { couponCalculationError: 'COUPON_NOT_APPLICABLE' } },
  },
  {
    name: 'automatic rule then coupon stack', // 100 -> 90 -> 85
    input: cart([line('a', '100.00')], { discountRules: [rule('auto', pct(10))], coupon: { id: 'c1', code: 'FIVE', name: 'Five off', discount: off('5.00') } }),
    expected: { priceSummary: ['100.00', '15.00', '0.00', '0.00', '0.00', '85.00'], appliedDiscounts: [['auto', 'GLOBAL', '10.00'], ['FIVE', 'GLOBAL', '5.00']] },
  },
  {
    name: 'merchant amount on one line',
    input: cart(AB(), { merchantDiscounts: [{ amount: '3.00', lineItemIds: ['b'] }] }),
    expected: { priceSummary: ['25.00', '3.00', '0.00', '0.00', '0.00', '22.00'], lines: { b: ['3.00', '0.00', '2.00'] }, appliedDiscounts: [['merchant', 'SPECIFIC_ITEMS', '3.00']] },
  },
  {
    name: 'merchant percentage per line', // 33% of 10.00 = 3.30, of 5.00 = 1.65
    input: cart([line('a', '10.00'), line('b', '5.00')], { merchantDiscounts: [{ percentage: 33, lineItemIds: ['a', 'b'] }] }),
    expected: { priceSummary: ['15.00', '4.95', '0.00', '0.00', '0.00', '10.05'], lines: { a: ['3.30', '0.00', '6.70'], b: ['1.65', '0.00', '3.35'] } },
  },
  {
    name: 'tax excluded, 10%',
    input: cart(AB(), { billingAddress: US, tax: US_TAX_10 }),
    expected: { priceSummary: ['25.00', '0.00', '0.00', '2.50', '0.00', '27.50'], lines: { a: ['0.00', '2.00', '22.00'], b: ['0.00', '0.50', '5.50'] }, paths: [['taxSummary.calculationDetails.rateType', 'MANUAL_RATE']] },
  },
  {
    name: 'tax included, 19%', // 11.90 * 0.19 / 1.19 = 1.90
    input: cart([line('a', '11.90')], { billingAddress: DE, tax: DE_TAX }),
    expected: { priceSummary: ['11.90', '0.00', '0.00', '1.90', '0.00', '11.90'], lines: { a: ['0.00', '1.90', '11.90'] }, paths: [['calculatedLineItems.0.pricesBreakdown.totalPriceBeforeTax.amount', '10.00'], ['taxSummary.taxIncludedInPrice', true]] },
  },
  {
    name: 'tax group override', // general 1.90 at 19%, book 10.70 at 7% = 0.70
    input: cart([line('a', '11.90'), line('book', '10.70', 1, { taxGroupId: 'books' })], { billingAddress: DE, tax: DE_TAX }),
    expected: {
      priceSummary: ['22.60', '0.00', '0.00', '2.60', '0.00', '22.60'], lines: { a: ['0.00', '1.90', '11.90'], book: ['0.00', '0.70', '10.70'] },
      paths: [['taxSummary.aggregatedTaxBreakdown.1.aggregatedTaxAmount.amount', '0.70'], ['taxSummary.aggregatedTaxBreakdown.1.rate', '0.07'], ['taxSummary.aggregatedTaxBreakdown.1.aggregatedTaxableAmount.amount', '10.00']],
    },
  },
  {
    name: 'subdivision region with state and county rates', // 7.25% of 100 = 7.25: state 6.00, county 1.25
    input: cart([line('a', '100.00')], { billingAddress: CA, tax: US_CA_TAX }),
    expected: {
      priceSummary: ['100.00', '0.00', '0.00', '7.25', '0.00', '107.25'],
      paths: [['calculatedLineItems.0.pricesBreakdown.taxDetails.taxRate', '0.0725'], ['calculatedLineItems.0.pricesBreakdown.taxDetails.rateBreakdown.0.tax.amount', '6.00'], ['calculatedLineItems.0.pricesBreakdown.taxDetails.rateBreakdown.1.tax.amount', '1.25']],
    },
  },
  {
    name: 'other subdivision falls back to the country region',
    input: cart([line('a', '100.00')], { billingAddress: US, tax: US_CA_TAX }),
    expected: { priceSummary: ['100.00', '0.00', '0.00', '4.00', '0.00', '104.00'] },
  },
  {
    name: 'no tax region for the address',
    input: cart([line('a', '100.00')], { billingAddress: { country: 'FR' }, tax: US_CA_TAX }),
    expected: { priceSummary: ['100.00', '0.00', '0.00', '0.00', '0.00', '100.00'], paths: [['taxSummary.calculationDetails.rateType', 'NO_TAX_COLLECTED']] },
  },
  {
    name: 'flat shipping, cheapest selected, shipping taxed', // line tax 2.00 + shipping tax 0.50
    input: cart([line('a', '20.00', 1, physical())], { shippingAddress: US, tax: US_TAX_10, shipping: { regions: usShipping([EXPRESS, STANDARD]) } }),
    expected: { priceSummary: ['20.00', '0.00', '5.00', '2.50', '0.00', '27.50'], selectedShippingOption: 'standard', paths: [['shippingInfo.selectedCarrierServiceOption.cost.totalPriceAfterTax.amount', '5.50']] },
  },
  {
    name: 'free shipping over a threshold',
    input: cart([line('a', '60.00', 1, physical())], { shippingAddress: US, shipping: { regions: usShipping([{ ...STANDARD, freeOver: '50.00' }]) } }),
    expected: { priceSummary: ['60.00', '0.00', '0.00', '0.00', '0.00', '60.00'], selectedShippingOption: 'standard' },
  },
  {
    name: 'free shipping threshold uses the discounted subtotal', // 55.00 - 10% = 49.50 < 50
    input: cart([line('a', '55.00', 1, physical())], { shippingAddress: US, discountRules: [rule('r10', pct(10))], shipping: { regions: usShipping([{ ...STANDARD, freeOver: '50.00' }]) } }),
    expected: { priceSummary: ['55.00', '5.50', '5.00', '0.00', '0.00', '54.50'] },
  },
  {
    name: 'weight ranges add weights exactly', // 0.1 + 0.2 = 0.3, inside "up to 0.3"
    input: cart([line('a', '1.00', 1, physical(0.1)), line('b', '1.00', 1, physical(0.2))], {
      shippingAddress: US,
      shipping: { regions: usShipping([{ code: 'post', title: 'Post', rate: { type: 'BY_WEIGHT', ranges: [{ upTo: 0.3, price: '4.00' }, { price: '8.00' }] } }]) },
    }),
    expected: { priceSummary: ['2.00', '0.00', '4.00', '0.00', '0.00', '6.00'] },
  },
  {
    name: 'weight above every closed range rules the option out',
    input: cart([line('a', '1.00', 3, physical(0.4))], {
      shippingAddress: US,
      shipping: { regions: usShipping([{ code: 'light', title: 'Light', rate: { type: 'BY_WEIGHT', ranges: [{ upTo: 1, price: '4.00' }] } }, { code: 'heavy', title: 'Heavy', rate: { type: 'BY_WEIGHT', ranges: [{ upTo: 1, price: '6.00' }, { upTo: 5, price: '9.00' }] } }]) },
    }),
    expected: { priceSummary: ['3.00', '0.00', '9.00', '0.00', '0.00', '12.00'], selectedShippingOption: 'heavy' },
  },
  {
    name: 'subtotal ranges',
    input: cart([line('a', '25.00', 1, physical())], {
      shippingAddress: US,
      shipping: { regions: usShipping([{ code: 'tiered', title: 'Tiered', rate: { type: 'BY_SUBTOTAL', ranges: [{ upTo: '20.00', price: '6.00' }, { price: '3.00' }] } }]) },
    }),
    expected: { priceSummary: ['25.00', '0.00', '3.00', '0.00', '0.00', '28.00'] },
  },
  {
    name: 'unknown selected option falls back to the cheapest',
    input: cart([line('a', '20.00', 1, physical())], { shippingAddress: US, shipping: { regions: usShipping([EXPRESS, STANDARD]), selectedShippingOption: { code: 'overnight' } } }),
    expected: { priceSummary: ['20.00', '0.00', '5.00', '0.00', '0.00', '25.00'], selectedShippingOption: 'standard', calculationErrors: { selectedShippingOptionError: 'SELECTED_SHIPPING_OPTION_UNAVAILABLE' } },
  },
  {
    name: 'selected express with handling fee and delivery window', // 15.00 + 2.00
    input: cart([line('a', '20.00', 1, physical())], { shippingAddress: US, shipping: { regions: usShipping([STANDARD, EXPRESS]), selectedShippingOption: { code: 'express' } } }),
    expected: {
      priceSummary: ['20.00', '0.00', '17.00', '0.00', '0.00', '37.00'], selectedShippingOption: 'express',
      paths: [
        ['shippingInfo.selectedCarrierServiceOption.logistics.deliveryTimeSlot', { from: '2026-06-02T12:00:00.000Z', to: '2026-06-04T12:00:00.000Z' }],
        ['shippingInfo.selectedCarrierServiceOption.requestedShippingOption', true],
        ['shippingInfo.carrierServiceOptions.0.shippingOptions.1.cost.otherCharges.0.price.amount', '2.00'],
      ],
    },
  },
  {
    name: 'shipping discount rule', // 50% of 5.00
    input: cart([line('a', '20.00', 1, physical())], { shippingAddress: US, discountRules: [rule('halfship', pct(50, 'SHIPPING'))], shipping: { regions: usShipping([STANDARD]) } }),
    expected: { priceSummary: ['20.00', '2.50', '5.00', '0.00', '0.00', '22.50'], appliedDiscounts: [['halfship', 'SHIPPING', '2.50']] },
  },
  {
    name: 'free-shipping coupon, shipping tax on what is left', // shipping 5.00 - 5.00; line tax 2.00
    input: cart([line('a', '20.00', 1, physical())], { shippingAddress: US, tax: US_TAX_10, coupon: { id: 'c2', code: 'FREESHIP', name: 'Free shipping', discount: pct(100, 'SHIPPING') }, shipping: { regions: usShipping([STANDARD]) } }),
    expected: { priceSummary: ['20.00', '5.00', '5.00', '2.00', '0.00', '22.00'], appliedDiscounts: [['FREESHIP', 'SHIPPING', '5.00']] },
  },
  {
    name: 'store pickup',
    input: cart([line('a', '20.00', 1, physical())], {
      shippingAddress: US,
      shipping: { regions: usShipping([STANDARD, { code: 'pickup', title: 'Pick up in store', rate: { type: 'FREE' }, pickup: { address: { country: 'US', city: 'Albany' }, pickupMethod: 'STORE_PICKUP' } }]), selectedShippingOption: { code: 'pickup' } },
    }),
    expected: { priceSummary: ['20.00', '0.00', '0.00', '0.00', '0.00', '20.00'], selectedShippingOption: 'pickup', paths: [['shippingInfo.selectedCarrierServiceOption.logistics.pickupDetails.pickupMethod', 'STORE_PICKUP']] },
  },
  {
    name: 'no choice made: the cheapest delivery, never a free pickup', // standard 5.00 chosen over pickup 0.00
    input: cart([line('a', '20.00', 1, physical())], {
      shippingAddress: US,
      shipping: { regions: usShipping([STANDARD, { code: 'pickup', title: 'Pick up in store', rate: { type: 'FREE' }, pickup: { address: { country: 'US', city: 'Albany' }, pickupMethod: 'STORE_PICKUP' } }]) },
    }),
    expected: { priceSummary: ['20.00', '0.00', '5.00', '0.00', '0.00', '25.00'], selectedShippingOption: 'standard' },
  },
  {
    name: 'no choice made and only a pickup reaches the address: the pickup',
    input: cart([line('a', '20.00', 1, physical())], {
      shippingAddress: US,
      shipping: { regions: usShipping([{ code: 'pickup', title: 'Pick up in store', rate: { type: 'FREE' }, pickup: { address: { country: 'US', city: 'Albany' }, pickupMethod: 'STORE_PICKUP' } }]) },
    }),
    expected: { priceSummary: ['20.00', '0.00', '0.00', '0.00', '0.00', '20.00'], selectedShippingOption: 'pickup' },
  },
  {
    name: 'no shipping to the address',
    input: cart([line('a', '20.00', 1, physical())], { shippingAddress: { country: 'FR' }, shipping: { regions: usShipping([STANDARD]) } }),
    expected: { priceSummary: ['20.00', '0.00', '0.00', '0.00', '0.00', '20.00'], selectedShippingOption: null, calculationErrors: { generalShippingCalculationError: 'NO_SHIPPING_OPTIONS' }, violations: [['ERROR', 'other']] },
  },
  {
    name: 'half-up rounding', // 0.50 * 5% = 0.025 -> 0.03; 0.70 * 5% = 0.035 -> 0.04
    input: cart([line('a', '0.50'), line('b', '0.70')], { billingAddress: US, roundingMode: 'HALF_UP', tax: { ...US_TAX_10, manualTaxMappings: [mapping('m-us', 'r-us', '0.05')] } }),
    expected: { priceSummary: ['1.20', '0.00', '0.00', '0.07', '0.00', '1.27'], lines: { a: ['0.00', '0.03', '0.53'], b: ['0.00', '0.04', '0.74'] } },
  },
  {
    name: 'half-even rounding', // 0.025 -> 0.02; 0.035 -> 0.04
    input: cart([line('a', '0.50'), line('b', '0.70')], { billingAddress: US, roundingMode: 'HALF_EVEN', tax: { ...US_TAX_10, manualTaxMappings: [mapping('m-us', 'r-us', '0.05')] } }),
    expected: { priceSummary: ['1.20', '0.00', '0.00', '0.06', '0.00', '1.26'], lines: { a: ['0.00', '0.02', '0.52'], b: ['0.00', '0.04', '0.74'] } },
  },
  {
    name: 'JPY has no minor unit', // 15% of 3333 = 499.95 -> 500: a 450, b 49.95 -> 50; tax 10%: 255 + 28.3 -> 28
    input: cart([line('a', '1000', 3), line('b', '333')], { currency: 'JPY', billingAddress: { country: 'JP' }, discountRules: [rule('r15', pct(15))], tax: { regions: [{ id: 'r-jp', country: 'JP', taxIncludedInPrice: false }], manualTaxMappings: [mapping('m-jp', 'r-jp', '0.1')] } }),
    expected: { priceSummary: ['3333', '500', '0', '283', '0', '3116'], lines: { a: ['450', '255', '2805'], b: ['50', '28', '311'] } },
  },
  {
    name: 'BHD has three decimals; a taxable fee', // 3.750 * 5% = 0.1875 -> 0.188; fee 0.500 tax 0.025
    input: cart([line('a', '1.250', 3)], {
      currency: 'BHD', billingAddress: { country: 'BH' },
      tax: { regions: [{ id: 'r-bh', country: 'BH', taxIncludedInPrice: false }], manualTaxMappings: [mapping('m-bh', 'r-bh', '0.05')] },
      additionalFees: [{ code: 'handling', name: 'Handling', price: '0.500' }],
    }),
    expected: { priceSummary: ['3.750', '0.000', '0.000', '0.213', '0.500', '4.463'], paths: [['additionalFees.0.priceAfterTax.amount', '0.525']] },
  },
  {
    name: 'untaxed fee',
    input: cart([line('a', '10.00')], { billingAddress: US, tax: US_TAX_10, additionalFees: [{ code: 'gift-wrap', name: 'Gift wrap', price: '2.00', taxable: false }] }),
    expected: { priceSummary: ['10.00', '0.00', '0.00', '1.00', '2.00', '13.00'] },
  },
  {
    name: 'unavailable line left out with a violation',
    input: cart([line('a', '10.00'), line('b', '5.00', 1, { availability: { status: 'NOT_AVAILABLE' } })]),
    expected: { priceSummary: ['10.00', '0.00', '0.00', '0.00', '0.00', '10.00'], violations: [['ERROR', 'b']], paths: [['violations.0.target.lineItem.suggestedFix', 'REMOVE_LINE_ITEM'], ['calculatedLineItems.1.priced', false]] },
  },
  {
    name: 'tax-included shipping', // line 1.90; shipping 5.95 * 0.19 / 1.19 = 0.95
    input: cart([line('a', '11.90', 1, physical())], { shippingAddress: DE, tax: DE_TAX, shipping: { regions: [{ id: 'ship-de', name: 'Germany', destinations: [{ country: 'DE' }], options: [{ code: 'dhl', title: 'DHL', rate: { type: 'FLAT', price: '5.95' } }] }] } }),
    expected: { priceSummary: ['11.90', '0.00', '5.95', '2.85', '0.00', '17.85'], paths: [['shippingInfo.selectedCarrierServiceOption.cost.totalPriceBeforeTax.amount', '5.00']] },
  },
  {
    name: 'shipping tax spread over lines with different rates',
    // 4.00 over 11.90 / 10.70: 2.106 -> 2.10 +0.01 (larger remainder) = 2.11, 1.89; tax 2.11*.19/1.19 = 0.34, 1.89*.07/1.07 = 0.12
    input: cart([line('a', '11.90', 1, physical()), line('book', '10.70', 1, { ...physical(), taxGroupId: 'books' })], {
      shippingAddress: DE, tax: DE_TAX, shipping: { regions: [{ id: 'ship-de', name: 'Germany', destinations: [{ country: 'DE' }], options: [{ code: 'dhl', title: 'DHL', rate: { type: 'FLAT', price: '4.00' } }] }] },
    }),
    expected: {
      priceSummary: ['22.60', '0.00', '4.00', '3.06', '0.00', '26.60'],
      paths: [
        ['shippingInfo.selectedCarrierServiceOption.lineAllocations', [{ lineItemId: 'a', amount: { amount: '2.11' }, tax: { amount: '0.34' } }, { lineItemId: 'book', amount: { amount: '1.89' }, tax: { amount: '0.12' } }]],
        ['shippingInfo.selectedCarrierServiceOption.cost.taxDetails.totalTax.amount', '0.46'],
      ],
    },
  },
];
