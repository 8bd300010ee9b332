/**
 * Notification e-mails rendered from events: pure functions from (event, site) to mails, HTML and
 * text. Everything that comes from users (names, product names, messages) is escaped in the HTML and
 * stripped of line breaks in subjects.
 */

export interface RenderedMail {
  template: string;
  to: string;
  subject: string;
  html: string;
  text: string;
}

export interface MailEvent {
  entityFqdn: string;
  slug: string;
  entity: unknown;
  data: Record<string, unknown>;
}

export interface MailSite {
  name: string;
  /** Site setting `ownerEmail` (owned by this domain): where owner notices go. */
  ownerEmail: string | undefined;
  /** Site setting `disabledMailTemplates` (owned by this domain): templates the owner turned off. */
  disabledTemplates: string[];
}

export const MEMBER_FQDN = 'wix.members.v1.member';
export const ORDER_FQDN = 'wix.ecom.v1.order';
export const FULFILLMENTS_FQDN = 'wix.ecom.v1.fulfillments';

/**
 * The event types a mail can come from. Events of other types are stored only for a webhook that
 * subscribes to them (EventsSettings.record); renderMails answers nothing for them, so a mail added
 * below without its type here never goes out and its test fails.
 */
const MAILING_EVENT_TYPES: readonly { entityFqdn: string; slug: string }[] = [
  { entityFqdn: MEMBER_FQDN, slug: 'created' },
  { entityFqdn: ORDER_FQDN, slug: 'created' },
  { entityFqdn: ORDER_FQDN, slug: 'canceled' },
  { entityFqdn: ORDER_FQDN, slug: 'payment_status_updated' },
  { entityFqdn: FULFILLMENTS_FQDN, slug: 'updated' },
];

export function eventMayMail(entityFqdn: string, slug: string): boolean {
  return MAILING_EVENT_TYPES.some((t) => t.entityFqdn === entityFqdn && t.slug === slug);
}
/** Longest user-supplied text copied into an e-mail. */
const MAX_TEXT = 2_000;
const MAX_LINE_ITEMS_SHOWN = 100;

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

function oneLine(value: string): string {
  return value.replace(/[\r\n\t]+/g, ' ').trim().slice(0, 200);
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? v as Obj : {});
const str = (v: unknown): string => (typeof v === 'string' ? v.slice(0, MAX_TEXT) : typeof v === 'number' ? String(v) : '');
/** One plain address: no separators, quotes or brackets that a mailer would read as a second recipient. */
const EMAIL = /^[^\s@<>,;:"()[\]\\]+@[^\s@<>,;:"()[\]\\]+$/;
export const plainEmail = (v: unknown): string | undefined => (typeof v === 'string' && EMAIL.test(v) && v.length <= 320 ? v : undefined);
const email = plainEmail;

function layout(siteName: string, title: string, bodyHtml: string): string {
  return `<!doctype html><html><body style="font-family:sans-serif;color:#222">`
    + `<h2>${escapeHtml(title)}</h2>${bodyHtml}<p style="color:#777">${escapeHtml(siteName)}</p></body></html>`;
}

function money(v: unknown): string {
  const m = obj(v);
  return str(m.formattedAmount) || str(m.amount);
}

function orderLines(order: Obj): { html: string; text: string } {
  const items = Array.isArray(order.lineItems) ? order.lineItems.slice(0, MAX_LINE_ITEMS_SHOWN).map(obj) : [];
  const rows = items.map((li) => ({
    name: str(obj(li.productName).original) || str(li.productName) || str(li.name),
    qty: str(li.quantity) || '1',
    price: money(li.price),
    download: httpLink(obj(li.digitalFile).link),
  }));
  const total = money(obj(order.priceSummary).total);
  const html = `<table>${rows.map((r) => `<tr><td>${escapeHtml(r.name)}</td><td>x ${escapeHtml(r.qty)}</td><td>${escapeHtml(r.price)}</td>`
    + `${r.download ? `<td><a href="${escapeHtml(r.download)}">Download</a></td>` : ''}</tr>`).join('')}`
    + `</table><p><strong>Total: ${escapeHtml(total)}</strong></p>`;
  const text = `${rows.map((r) => `- ${r.name} x ${r.qty} ${r.price}${r.download ? `\n  Download: ${r.download}` : ''}`).join('\n')}\nTotal: ${total}`;
  return { html, text };
}

/** `value` when it is an http(s) URL (a digital line's download link), else undefined: nothing else goes into an href. */
function httpLink(value: unknown): string | undefined {
  return typeof value === 'string' && /^https?:\/\//.test(value) ? value : undefined;
}

/** The mails an event causes (none for most events), minus the templates the site turned off. */
export function mailsForEvent(event: MailEvent, site: MailSite): RenderedMail[] {
  return renderMails(event, site).filter((m) => !site.disabledTemplates.includes(m.template));
}

function renderMails(event: MailEvent, site: MailSite): RenderedMail[] {
  if (!eventMayMail(event.entityFqdn, event.slug)) return [];
  const entity = obj(event.entity);
  if (event.entityFqdn === MEMBER_FQDN && event.slug === 'created') {
    const to = email(entity.loginEmail) ?? email(obj(entity.contact).emails && (obj(entity.contact).emails as unknown[])[0]);
    if (!to) return [];
    const name = str(obj(entity.contact).firstName) || str(obj(entity.profile).nickname) || to;
    const subject = oneLine(`Welcome to ${site.name}`);
    return [{
      template: 'member-welcome',
      to,
      subject,
      html: layout(site.name, subject, `<p>Hi ${escapeHtml(name)},</p><p>your account at ${escapeHtml(site.name)} is ready.</p>`),
      text: `Hi ${name},\n\nyour account at ${site.name} is ready.\n\n${site.name}\n`,
    }];
  }
  if (event.entityFqdn === ORDER_FQDN && event.slug === 'payment_status_updated') return paymentMails(entity, event.data, site);
  if (event.entityFqdn === FULFILLMENTS_FQDN && event.slug === 'updated' && event.data.mail === 'SHIPPED') return shippedMails(obj(event.data.order), obj(event.data.trackingInfo), site);
  if (event.entityFqdn === ORDER_FQDN && (event.slug === 'created' || event.slug === 'canceled')) {
    const buyer = obj(entity.buyerInfo);
    const to = email(buyer.email);
    const number = str(entity.number) || str(entity.id);
    const lines = orderLines(entity);
    const mails: RenderedMail[] = [];
    if (event.slug === 'created') {
      if (to) {
        const subject = oneLine(`Your order #${number} at ${site.name}`);
        mails.push({
          template: 'order-confirmation', to, subject,
          html: layout(site.name, subject, `<p>Thank you for your order #${escapeHtml(number)}.</p>${lines.html}`),
          text: `Thank you for your order #${number}.\n\n${lines.text}\n\n${site.name}\n`,
        });
      }
      if (site.ownerEmail) {
        const subject = oneLine(`New order #${number}`);
        mails.push({
          template: 'owner-new-order', to: site.ownerEmail, subject,
          html: layout(site.name, subject, `<p>Order #${escapeHtml(number)} from ${escapeHtml(to ?? 'a visitor')}.</p>${lines.html}`),
          text: `Order #${number} from ${to ?? 'a visitor'}.\n\n${lines.text}\n`,
        });
      }
      return mails;
    }
    if (to && event.data.sendOrderCanceledEmail !== false) {
      const message = str(event.data.customMessage);
      const subject = oneLine(`Your order #${number} was canceled`);
      mails.push({
        template: 'order-canceled', to, subject,
        html: layout(site.name, subject, `<p>Your order #${escapeHtml(number)} at ${escapeHtml(site.name)} was canceled.</p>`
          + (message ? `<p>${escapeHtml(message)}</p>` : '')),
        text: `Your order #${number} at ${site.name} was canceled.\n${message ? `\n${message}\n` : ''}\n${site.name}\n`,
      });
    }
    return mails;
  }
  return [];
}

/** Paid and refunded e-mails to the buyer, from the order's payment event (`data.mail` says which). */
function paymentMails(order: Obj, data: Obj, site: MailSite): RenderedMail[] {
  const to = email(obj(order.buyerInfo).email);
  const number = str(order.number) || str(order.id);
  if (!to) return [];
  if (data.mail === 'PAID') {
    const subject = oneLine(`Payment received for order #${number}`);
    const lines = orderLines(order);
    return [{
      template: 'order-paid', to, subject,
      html: layout(site.name, subject, `<p>We received your payment for order #${escapeHtml(number)}.</p>${lines.html}`),
      text: `We received your payment for order #${number}.\n\n${lines.text}\n\n${site.name}\n`,
    }];
  }
  if (data.mail === 'REFUNDED') {
    const amount = money(data.refundAmount);
    const subject = oneLine(`Refund for order #${number}`);
    return [{
      template: 'order-refunded', to, subject,
      html: layout(site.name, subject, `<p>We refunded ${escapeHtml(amount)} of order #${escapeHtml(number)}.</p>`),
      text: `We refunded ${amount} of order #${number}.\n\n${site.name}\n`,
    }];
  }
  return [];
}

/** The shipping e-mail of a new fulfillment, with its tracking number and carrier when given. */
function shippedMails(order: Obj, tracking: Obj, site: MailSite): RenderedMail[] {
  const to = email(obj(order.buyerInfo).email);
  if (!to) return [];
  const number = str(order.number) || str(order.id);
  const trackingNumber = str(tracking.trackingNumber);
  const carrier = str(tracking.shippingProvider);
  const track = trackingNumber ? `Tracking number: ${trackingNumber}${carrier ? ` (${carrier})` : ''}` : '';
  const subject = oneLine(`Your order #${number} is on its way`);
  return [{
    template: 'order-shipped', to, subject,
    html: layout(site.name, subject, `<p>Items of your order #${escapeHtml(number)} have shipped.</p>${track ? `<p>${escapeHtml(track)}</p>` : ''}`),
    text: `Items of your order #${number} have shipped.\n${track ? `${track}\n` : ''}\n${site.name}\n`,
  }];
}

/** The notice to the owner when a webhook subscription is disabled after a failure streak. */
export function webhookDisabledMail(to: string, site: MailSite, sub: { id: string; url: string; failureStreak: number; failingSince: string }): RenderedMail {
  const subject = oneLine(`Webhook disabled: ${sub.url}`);
  return {
    template: 'webhook-disabled',
    to,
    subject,
    html: layout(site.name, subject, `<p>The webhook subscription ${escapeHtml(sub.id)} to <code>${escapeHtml(sub.url)}</code> failed `
      + `${sub.failureStreak} times in a row since ${escapeHtml(sub.failingSince)} and was disabled. `
      + `Fix the receiver, then enable it again (PATCH /webhooks/v1/subscriptions/${escapeHtml(sub.id)} with status ACTIVE); `
      + `deliveries still pending resume then; events that happen while it is disabled are not sent to it.</p>`),
    text: `The webhook subscription ${sub.id} to ${sub.url} failed ${sub.failureStreak} times in a row since ${sub.failingSince} and was disabled.\n`
      + `Fix the receiver, then enable it again (PATCH /webhooks/v1/subscriptions/${sub.id} with status ACTIVE); deliveries still pending resume then; events that happen while it is disabled are not sent to it.\n`,
  };
}
