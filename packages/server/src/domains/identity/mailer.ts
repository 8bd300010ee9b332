import { randomUUID } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import type { BaseContext } from '../../http/context.js';
import { insertMail } from './store.js';

/**
 * Identity e-mails (codes, reset links). With SMTP_URL they go out through nodemailer; without it they
 * are kept in `mail_outbox` for the dashboard, and the log says one was stored (never its content).
 */
export interface Mail { to: string; subject: string; text: string; html?: string }

const FROM = 'Vitrine <no-reply@vitrine.local>';
export const SMTP_TIMEOUT_MS = 5_000;
const transports = new Map<string, Transporter>();

function transportFor(url: string): Transporter {
  let t = transports.get(url);
  if (!t) {
    // Bounded waits: an unreachable SMTP server must not hold a login request for minutes.
    t = nodemailer.createTransport({ url, connectionTimeout: SMTP_TIMEOUT_MS, greetingTimeout: SMTP_TIMEOUT_MS, socketTimeout: 2 * SMTP_TIMEOUT_MS });
    transports.set(url, t);
  }
  return t;
}

export async function sendMail(ctx: BaseContext, siteId: string, mail: Mail): Promise<void> {
  const smtpUrl = ctx.deps.config.smtpUrl;
  if (smtpUrl) {
    try {
      await transportFor(smtpUrl).sendMail({ from: FROM, to: mail.to, subject: mail.subject, text: mail.text, ...(mail.html ? { html: mail.html } : {}) });
      ctx.log.info({ reqId: ctx.requestId, siteId }, 'identity mail sent');
      return;
    } catch (err) {
      // The SMTP server is down: keep the mail in the outbox (the owner sees it) rather than fail the login.
      ctx.log.error({ reqId: ctx.requestId, siteId, err }, 'identity mail: SMTP failed, stored in mail_outbox');
    }
  }
  await insertMail(ctx.deps.storage.db, { id: randomUUID(), siteId, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? null, createdDate: new Date().toISOString() });
  ctx.log.info({ reqId: ctx.requestId, siteId }, 'identity mail stored in mail_outbox');
}

/**
 * Sends without making the caller wait: answers then take the same time whether or not a mail went out
 * (user enumeration, ASVS 6.3.8). Failures are logged.
 */
export function sendMailInBackground(ctx: BaseContext, siteId: string, mail: Mail): void {
  sendMail(ctx, siteId, mail).catch((err: unknown) => ctx.log.error({ reqId: ctx.requestId, err }, 'identity mail failed'));
}
