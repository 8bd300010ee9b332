/**
 * The hosted checkout page (docs/checkout.md): reached through an `ecomCheckout` redirect session
 * (`?rs=`) or the checkout's own URL (`?checkoutId=&token=`, from getCheckoutUrl). It shows the lines
 * and totals, collects e-mail, address, shipping option and a test card, places the order and sends
 * the buyer to the thank-you URL. The page acts as the checkout's buyer; the session id or page token
 * is the capability, compared in constant time.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { BaseContext, RequestContext } from '../../http/context.js';
import { ApplicationError } from '../../http/errors.js';
import { loadRedirectSession } from '../identity/index.js';
import { assertSiteServes, getSiteCached } from '../sites/index.js';
import { completeInTransaction, getCheckout, updateCheckout } from './checkout-service.js';
import { callerOfOwnerKey } from './owner.js';
import { placeOrderAndCharge } from './place-order.js';
import { findCheckoutAnySite, findCheckout } from './store.js';
import { inTransaction } from '../../storage/transaction.js';
import type { StoredCheckout } from './model.js';

export interface PageAccess { rs?: string | undefined; checkoutId?: string | undefined; token?: string | undefined }
interface Access { ctx: RequestContext; checkout: StoredCheckout; thankYouPageUrl: string | null }

const sameSecret = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Who the page acts as, for a session or page token; undefined when neither grants this checkout. */
async function access(ctx: BaseContext, q: PageAccess): Promise<Access | undefined> {
  let checkoutId = q.checkoutId;
  let thankYou: string | null = null;
  if (q.rs) {
    const session = await loadRedirectSession(ctx.db, q.rs);
    if (!session || session.kind !== 'ecomCheckout') return undefined;
    checkoutId = String(session.payload.checkoutId ?? '');
    const callbacks = (session.payload.callbacks ?? {}) as { thankYouPageUrl?: string };
    thankYou = callbacks.thankYouPageUrl ?? null;
  }
  if (!checkoutId) return undefined;
  const found = await findCheckoutAnySite(ctx.db, checkoutId);
  if (!found) return undefined;
  if (!q.rs && !(q.token && sameSecret(q.token, found.checkout.doc.pageToken))) return undefined;
  const site = await getSiteCached(ctx.db, found.siteId);
  if (!site) return undefined;
  assertSiteServes(site);
  const rctx: RequestContext = { ...ctx, site, caller: callerOfOwnerKey(found.checkout.ownerKey) };
  return { ctx: rctx, checkout: found.checkout, thankYouPageUrl: thankYou ?? found.checkout.doc.thankYouPageUrl };
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const jsonForScript = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

function html(title: string, body: string, script: string, status = 200): Response {
  const nonce = randomBytes(16).toString('base64');
  return new Response(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;color:#222}
table{width:100%;border-collapse:collapse}td{padding:.3rem 0}td.n{text-align:right}form{display:flex;flex-direction:column;gap:.5rem;margin:1rem 0}
label{display:flex;flex-direction:column;gap:.2rem;font-size:.9rem}input,select,button{font:inherit;padding:.5rem;box-sizing:border-box;width:100%}
.row{display:flex;gap:.5rem}.row>*{flex:1;min-width:0}.err{color:#b00020}.total{font-weight:bold}</style></head>
<body><main>${body}</main><script nonce="${nonce}">${script}</script></body></html>`, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-content-type-options': 'nosniff',
      'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; img-src 'self' https: data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
    },
  });
}

const PAGE_SCRIPT = `
const state = JSON.parse(document.getElementById('state').textContent);
const $ = (id) => document.getElementById(id);
function render(co) {
  $('lines').innerHTML = '';
  for (const l of co.lineItems) {
    const tr = document.createElement('tr');
    const a = document.createElement('td'); a.textContent = l.quantity + ' x ' + l.productName.original;
    const b = document.createElement('td'); b.className = 'n'; b.textContent = l.lineItemPrice.formattedAmount;
    tr.append(a, b); $('lines').append(tr);
  }
  const s = co.priceSummary;
  for (const k of ['subtotal', 'discount', 'shipping', 'tax', 'total']) $('sum-' + k).textContent = s[k].formattedAmount;
  const sel = $('shipping'); const chosen = co.shippingInfo.selectedCarrierServiceOption;
  sel.innerHTML = '';
  for (const group of co.shippingInfo.carrierServiceOptions) for (const o of group.shippingOptions) {
    const opt = document.createElement('option'); opt.value = o.code; opt.textContent = o.title + ' ' + o.cost.price.formattedAmount;
    if (chosen && chosen.code === o.code) opt.selected = true; sel.append(opt);
  }
  $('shipping-row').hidden = sel.options.length === 0;
}
/** What the checkout holds already goes into the form once, so a change sends it back rather than blanks. */
function fill(co) {
  const f = $('form'); const dest = (co.shippingInfo && co.shippingInfo.shippingDestination) || {};
  const a = dest.address || {}; const c = dest.contactDetails || {};
  const set = (name, v) => { if (v && !f[name].value) f[name].value = v; };
  set('email', co.buyerInfo && co.buyerInfo.email); set('firstName', c.firstName); set('lastName', c.lastName);
  set('addressLine', a.addressLine); set('city', a.city); set('postalCode', a.postalCode); set('country', a.country); set('subdivision', a.subdivision);
}
function problem(out) {
  const v = out.details && out.details.validationError && out.details.validationError.fieldViolations;
  if (v && v.length) return v[0].field + ' ' + v[0].description;
  return (out.details && out.details.applicationError && out.details.applicationError.description) || 'Something went wrong';
}
async function send(action) {
  const f = $('form');
  const body = { ...state.access, action, email: f.email.value, shippingOption: f.shipping.value || null,
    address: { firstName: f.firstName.value, lastName: f.lastName.value, addressLine: f.addressLine.value, city: f.city.value, postalCode: f.postalCode.value, country: f.country.value, subdivision: f.subdivision.value || null } };
  if (action === 'place') body.card = { number: f.card.value.replace(/\\s/g, ''), expMonth: Number(f.expMonth.value), expYear: Number(f.expYear.value), cvc: f.cvc.value };
  const res = await fetch('/_hosted/checkout/api', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const out = await res.json();
  if (!res.ok) { $('error').textContent = problem(out); return; }
  $('error').textContent = '';
  if (out.checkout) render(out.checkout);
  if (out.redirectUrl) location.assign(out.redirectUrl);
}
fill(state.checkout);
render(state.checkout);
$('form').addEventListener('change', () => send('update'));
$('form').addEventListener('submit', (e) => { e.preventDefault(); send('place'); });
`;

function checkoutBody(): string {
  // Summary cells and form fields have ids of their own: the script finds each by id.
  return `<h1>Checkout</h1><table id="lines"></table><table>
<tr><td>Subtotal</td><td class="n" id="sum-subtotal"></td></tr><tr><td>Discount</td><td class="n" id="sum-discount"></td></tr>
<tr><td>Shipping</td><td class="n" id="sum-shipping"></td></tr><tr><td>Tax</td><td class="n" id="sum-tax"></td></tr>
<tr class="total"><td>Total</td><td class="n" id="sum-total"></td></tr></table>
<form id="form"><label>E-mail<input name="email" type="email" autocomplete="email" required></label>
<div class="row"><label>First name<input name="firstName" autocomplete="given-name"></label><label>Last name<input name="lastName" autocomplete="family-name"></label></div>
<label>Address<input name="addressLine" autocomplete="address-line1"></label>
<div class="row"><label>City<input name="city" autocomplete="address-level2"></label><label>Postal code<input name="postalCode" autocomplete="postal-code"></label></div>
<div class="row"><label>Country code<input name="country" placeholder="US" maxlength="2" autocomplete="country" required></label><label>State or region<input name="subdivision" placeholder="US-CA"></label></div>
<label id="shipping-row">Delivery<select name="shipping" id="shipping"></select></label>
<label>Card number<input name="card" inputmode="numeric" autocomplete="cc-number" required></label>
<div class="row"><label>Month<input name="expMonth" placeholder="MM" inputmode="numeric" autocomplete="cc-exp-month" required></label><label>Year<input name="expYear" placeholder="YYYY" inputmode="numeric" autocomplete="cc-exp-year" required></label><label>CVC<input name="cvc" inputmode="numeric" autocomplete="cc-csc" required></label></div>
<p class="err" id="error" role="alert"></p><button>Place order</button></form>`;
}

/** `GET /_hosted/checkout`. */
export async function checkoutPage(ctx: BaseContext, q: PageAccess): Promise<Response> {
  const a = await access(ctx, q);
  if (!a) return html('Checkout', '<h1>Link expired</h1><p>This checkout link is invalid or expired.</p>', '', 404);
  if (a.checkout.completed) return html('Checkout', '<h1>Thank you</h1><p>This order has been placed.</p>', '');
  const { checkout } = await getCheckout(a.ctx, a.checkout.id);
  const state = { access: q.rs ? { rs: q.rs } : { checkoutId: q.checkoutId, token: q.token }, checkout };
  return html('Checkout', `${checkoutBody()}<script type="application/json" id="state">${jsonForScript(state)}</script>`, PAGE_SCRIPT);
}

export interface PageApiInput extends PageAccess {
  action: 'update' | 'place';
  email?: string | undefined;
  shippingOption?: string | null | undefined;
  address?: { firstName?: string | undefined; lastName?: string | undefined; addressLine?: string | undefined; city?: string | undefined; postalCode?: string | undefined; country?: string | undefined; subdivision?: string | null | undefined } | undefined;
  card?: { number: string; expMonth: number; expYear: number; cvc: string } | undefined;
}

/** `POST /_hosted/checkout/api`: save what the buyer typed; `place` also creates and charges the order. */
export async function checkoutPageApi(ctx: BaseContext, input: PageApiInput): Promise<unknown> {
  const a = await access(ctx, input);
  if (!a) throw new ApplicationError(404, 'CHECKOUT_NOT_FOUND', 'This checkout link is invalid or expired');
  if (!a.checkout.completed) {
    const ad = input.address;
    const address = ad?.country ? {
      country: ad.country, subdivision: ad.subdivision || null, city: ad.city || null, postalCode: ad.postalCode || null, addressLine: ad.addressLine || null,
    } : undefined;
    const contact = ad ? { firstName: ad.firstName || null, lastName: ad.lastName || null } : undefined;
    await updateCheckout(a.ctx, a.checkout.id, {
      checkout: {
        ...(input.email ? { buyerInfo: { email: input.email } } : {}),
        ...(address ? { shippingInfo: { shippingDestination: { address, contactDetails: contact ?? null }, ...(input.shippingOption ? { selectedCarrierServiceOption: { code: input.shippingOption } } : {}) }, billingInfo: { address, contactDetails: contact ?? null } } : {}),
      },
    });
  }
  if (input.action === 'update') return getCheckout(a.ctx, a.checkout.id);
  if (!input.card) throw new ApplicationError(400, 'CARD_REQUIRED', 'Enter a card to pay with');
  const placed = await placeOrderAndCharge(a.ctx, a.checkout.id, { paymentToken: JSON.stringify(input.card) });
  const result = placed.paymentResponseToken ? JSON.parse(placed.paymentResponseToken) as { status: string; declineCode?: string } : { status: 'APPROVED' };
  if (result.status === 'DECLINED') throw new ApplicationError(400, 'CARD_DECLINED', 'The card was declined; try another card', { orderId: placed.orderId });
  // Without a thank-you page of the caller's, the storefront's confirmation (it reads a visitor's order through the checkout).
  if (!a.thankYouPageUrl) {
    return { orderId: placed.orderId, redirectUrl: `${ctx.origin}/order-confirmation/${encodeURIComponent(placed.orderId)}?checkout=${encodeURIComponent(a.checkout.id)}` };
  }
  const sep = a.thankYouPageUrl.includes('?') ? '&' : '?';
  return { orderId: placed.orderId, redirectUrl: `${a.thankYouPageUrl}${sep}orderId=${encodeURIComponent(placed.orderId)}` };
}

/**
 * `GET /ecom/v1/checkouts/mark-checkout-as-completed-and-redirect-to-url?token=<checkoutId>.<pageToken>`:
 * marks the checkout completed (paid elsewhere) and redirects to its thank-you URL.
 */
export async function completeAndRedirect(ctx: BaseContext, token: string): Promise<Response> {
  const dot = token.indexOf('.');
  const a = dot > 0 ? await access(ctx, { checkoutId: token.slice(0, dot), token: token.slice(dot + 1) }) : undefined;
  if (!a) throw new ApplicationError(404, 'CHECKOUT_NOT_FOUND', 'The token names no checkout');
  await inTransaction(a.ctx.db, async (trx) => {
    const tctx = { ...a.ctx, db: trx };
    const co = await findCheckout(trx, tctx.site.id, a.checkout.id, { lock: true });
    if (co && !co.completed) await completeInTransaction(tctx, co);
  });
  return new Response(null, { status: 302, headers: { location: a.thankYouPageUrl ?? `${ctx.origin}/`, 'cache-control': 'no-store' } });
}
