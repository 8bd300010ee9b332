/**
 * A checkout becomes an order (docs/checkout.md): in ONE transaction the order is written (orders
 * domain: number, lines, totals, stock), the coupon use is counted, the abandoned-checkout report is
 * closed and the checkout is marked completed with its order id. The checkout row is locked first, so
 * the same checkout placed twice, or concurrently, gives the same order.
 */
import { isElevated, type RequestContext } from '../../http/context.js';
import { ApplicationError, notFound } from '../../http/errors.js';
import { inTransaction } from '../../storage/transaction.js';
import { createOrderFromCheckout, type OrderDraft } from '../orders/index.js';
import { chargeOrder, type ChargePayment } from '../payments/index.js';
import { completeInTransaction, priceCheckout, type CheckoutView } from './checkout-service.js';
import { ownerOf } from './owner.js';
import { presentCheckout } from './present.js';
import { getCheckoutSettings, recordCouponUse } from './rules/index.js';
import { findCheckout } from './store.js';

/** The order draft of a priced checkout: the checkout as it is on the wire, plus each line's variant for stock. */
export function orderDraft(v: CheckoutView): OrderDraft {
  const co = v.checkout;
  const wire = presentCheckout(co, v.lines, v.totals.result);
  const variantOf = new Map(v.lines.map((l) => [l.id, l.stock?.variantId]));
  const shippingOption = wire.shippingInfo.selectedCarrierServiceOption;
  return {
    checkoutId: co.id,
    cartId: co.cartId,
    currency: wire.currency,
    channelType: wire.channelType,
    buyerInfo: { visitorId: co.doc.buyer.visitorId ?? null, memberId: co.doc.buyer.memberId ?? null, contactId: null, email: co.doc.email },
    buyerLanguage: wire.buyerLanguage,
    weightUnit: wire.weightUnit,
    taxIncludedInPrices: wire.taxIncludedInPrice,
    lineItems: wire.lineItems.map((l) => {
      const variantId = variantOf.get(l.id);
      return {
        id: l.id,
        productName: l.productName,
        ...(l.catalogReference ? { catalogReference: { ...l.catalogReference, options: { ...(l.catalogReference.options ?? {}), ...(variantId ? { variantId } : {}) } } } : {}),
        quantity: l.quantity,
        price: { amount: l.price.amount, formattedAmount: l.price.formattedAmount },
        fullPrice: { amount: l.fullPrice.amount, formattedAmount: l.fullPrice.formattedAmount },
        priceBeforeDiscounts: { amount: l.priceBeforeDiscounts.amount, formattedAmount: l.priceBeforeDiscounts.formattedAmount },
        totalPriceBeforeTax: { amount: l.totalPriceBeforeTax.amount, formattedAmount: l.totalPriceBeforeTax.formattedAmount },
        totalPriceAfterTax: { amount: l.totalPriceAfterTax.amount, formattedAmount: l.totalPriceAfterTax.formattedAmount },
        totalDiscount: { amount: l.totalDiscount.amount, formattedAmount: l.totalDiscount.formattedAmount },
        taxDetails: { ...l.taxDetails },
        descriptionLines: l.descriptionLines.map((d) => ({ ...d })),
        image: l.image?.url ?? null,
        sku: l.physicalProperties?.sku ?? null,
        itemType: l.itemType,
        paymentOption: l.paymentOption,
        ...(l.physicalProperties ? { physicalProperties: l.physicalProperties } : {}),
        rootCatalogItemId: l.rootCatalogItemId ?? null,
        ...(l.subscriptionOptionInfo ? { subscriptionInfo: { ...l.subscriptionOptionInfo, cycleNumber: 1 } } : {}),
      };
    }),
    ...(wire.billingInfo ? { billingInfo: { ...wire.billingInfo } } : {}),
    shippingInfo: {
      ...(shippingOption ? { title: shippingOption.title, code: shippingOption.code, cost: { ...shippingOption.cost } } : {}),
      logistics: { ...(shippingOption?.logistics ?? {}), shippingDestination: wire.shippingInfo.shippingDestination ?? null },
    },
    priceSummary: {
      subtotal: { amount: wire.priceSummary.subtotal.amount }, shipping: { amount: wire.priceSummary.shipping.amount }, tax: { amount: wire.priceSummary.tax.amount },
      discount: { amount: wire.priceSummary.discount.amount }, total: { amount: wire.priceSummary.total.amount }, additionalFees: { amount: wire.priceSummary.additionalFees.amount },
    },
    appliedDiscounts: wire.appliedDiscounts.map((a) => ({ ...a })),
    taxSummary: { ...wire.taxSummary },
    additionalFees: wire.additionalFees.map((f) => ({ ...f })),
    customFields: wire.customFields.map((f) => ({ ...f })),
    buyerNote: wire.buyerNote ?? null,
  };
}

/** Why a checkout cannot become an order now (nothing to buy, a line that cannot be sold, a coupon that no longer applies). */
function refuseUnpayable(v: CheckoutView): void {
  const r = v.totals.result;
  if (v.checkout.doc.lineItems.length === 0) throw new ApplicationError(400, 'CHECKOUT_HAS_NO_LINE_ITEMS', 'The checkout has no line items');
  const blocking = r.violations.filter((x) => x.severity === 'ERROR');
  if (blocking.length > 0) {
    throw new ApplicationError(409, 'CHECKOUT_HAS_VIOLATIONS', blocking.map((x) => x.description).join('; '), { violations: blocking });
  }
  if (r.calculationErrors.couponCalculationError) {
    const e = r.calculationErrors.couponCalculationError.applicationError;
    throw new ApplicationError(409, 'COUPON_NOT_APPLICABLE', e.description, { couponError: e.code });
  }
}

/** Creates the checkout's order, or answers the order it already has. */
export async function placeOrder(ctx: RequestContext, checkoutId: string): Promise<{ orderId: string; created: boolean }> {
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const co = await findCheckout(trx, ctx.site.id, checkoutId, { lock: true });
    if (!co || (!isElevated(ctx.caller) && co.ownerKey !== ownerOf(ctx.caller).key)) throw notFound('CHECKOUT_NOT_FOUND', `Checkout ${checkoutId} not found`, { checkoutId });
    if (co.orderId) return { orderId: co.orderId, created: false };
    if (co.completed) throw new ApplicationError(409, 'CHECKOUT_ALREADY_COMPLETED', `Checkout ${checkoutId} was completed without an order`, { checkoutId });
    const v = await priceCheckout(tctx, co);
    refuseUnpayable(v);
    const { orderId } = await createOrderFromCheckout(tctx, orderDraft(v));
    const coupon = v.totals.result.appliedDiscounts.find((a) => a.coupon)?.coupon;
    if (coupon) await recordCouponUse(tctx, coupon.id);
    await completeInTransaction(tctx, co, { priced: v, orderId });
    return { orderId, created: true };
  });
}

/**
 * The payment a `paymentToken` stands for. This server's online provider is the test provider, whose
 * token is the card itself as JSON text (`{"number","expMonth","expYear","cvc"}`); no token means an
 * offline payment the merchant confirms later.
 */
export function paymentOf(token: string | null | undefined): ChargePayment {
  if (!token) return { method: 'MANUAL' };
  let card: unknown;
  try {
    card = JSON.parse(token);
  } catch {
    card = undefined;
  }
  const c = card as Record<string, unknown> | undefined;
  if (!c || typeof c.number !== 'string' || typeof c.expMonth !== 'number' || typeof c.expYear !== 'number' || typeof c.cvc !== 'string') {
    throw new ApplicationError(400, 'INVALID_PAYMENT_TOKEN', 'paymentToken must be a card as JSON: {"number","expMonth","expYear","cvc"}');
  }
  return { method: 'CARD', card: { number: c.number, expMonth: c.expMonth, expYear: c.expYear, cvc: c.cvc } };
}

/**
 * The order (as createOrder) and its charge in ONE transaction: a process killed between the two can
 * leave neither an order without its payment nor a payment without its order. A declined card commits
 * the order placed and unpaid with its DECLINED payment, and a later call with another card pays that
 * same order (the order exists then, so only the charge runs). A card refused before it reaches the
 * provider (malformed, expired) creates nothing. A repeat after the order was paid answers the order
 * without charging again.
 */
export async function placeOrderAndCharge(ctx: RequestContext, checkoutId: string, opts: { paymentToken?: string | null | undefined; delayCapture?: boolean | null | undefined }): Promise<{ orderId: string; paymentResponseToken: string | null }> {
  const payment = paymentOf(opts.paymentToken);
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    const { orderId, created } = await placeOrder(tctx, checkoutId);
    try {
      // Without an explicit choice the store's checkout setting decides whether the card is only authorized.
      const delayedCapture = opts.delayCapture ?? (await getCheckoutSettings(tctx)).checkoutFields.delayCaptureEnabled ?? false;
      const result = await chargeOrder(tctx, orderId, payment, { delayedCapture });
      return { orderId, paymentResponseToken: JSON.stringify(result) };
    } catch (error) {
      if (!created && error instanceof ApplicationError && error.code === 'ORDER_ALREADY_PAID') return { orderId, paymentResponseToken: null };
      throw error;
    }
  });
}
