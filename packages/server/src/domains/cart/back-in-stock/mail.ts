import { escapeHtml } from '../../events/index.js';
import { BACK_IN_STOCK_TEMPLATE, type StockRequest } from './model.js';

/** Longest item name and price copied into the mail (they come from the requester's page). */
export const MAIL_NAME_MAX = 200;
export const MAIL_PRICE_MAX = 50;

function oneLine(text: string, max: number): string {
  return text.replace(/[\r\n\t]+/g, ' ').trim().slice(0, max);
}

/**
 * The "back in stock" e-mail of one request: the item's name (and price when known) and a link to its
 * page (the item URL given with the request, else the store). User text is escaped in the HTML and kept
 * to one line in the subject.
 */
export function renderBackInStockMail(siteName: string, request: StockRequest, details: { name?: string | undefined; price?: string | undefined }) {
  const name = oneLine(details.name ?? request.item.name ?? '', MAIL_NAME_MAX) || 'An item you asked about';
  const price = oneLine(details.price ?? request.item.price ?? '', MAIL_PRICE_MAX);
  const link = request.item.url ?? `${request.linkOrigin}/`;
  const site = oneLine(siteName, MAIL_NAME_MAX);
  const html = '<!doctype html><html><body style="font-family:sans-serif;color:#222">'
    + `<h2>${escapeHtml(name)} is back in stock</h2>`
    + `<p>You asked us to tell you when <strong>${escapeHtml(name)}</strong> is available again. It is${price ? `, at ${escapeHtml(price)}` : ''}.</p>`
    + `<p><a href="${escapeHtml(link)}">View ${escapeHtml(name)}</a></p>`
    + `<p style="color:#777">${escapeHtml(site)}</p></body></html>`;
  const text = `You asked us to tell you when ${name} is available again. It is${price ? `, at ${price}` : ''}.\n\nView it: ${link}\n\n${site}`;
  return { template: BACK_IN_STOCK_TEMPLATE, to: request.email, subject: `Back in stock: ${name}`, html, text };
}
