import type { BaseContext } from '../../http/context.js';
import type { Executor } from '../../storage/database.js';
import { enqueueMail, escapeHtml, listMail } from '../events/index.js';

/**
 * Identity e-mails (codes, reset links) go through the one outbox: a row and a `mail.send` job queued
 * in the caller's transaction (domains/events/mail.ts sends it, or keeps it for the dashboard's
 * mailbox without SMTP_URL). Queuing is a database write, never a network call, so a login answers in
 * the same time whether the SMTP server is fast, slow or down.
 */
export interface Mail { to: string; subject: string; text: string; html?: string }

/** The outbox `template` of identity mails (the mailbox route filters on it). */
export const IDENTITY_MAIL_TEMPLATES = ['identity-code', 'identity-recovery', 'identity-register-notice'] as const;
export type IdentityMailTemplate = (typeof IDENTITY_MAIL_TEMPLATES)[number];

/** Identity mails to one address, oldest first (tests read e-mailed codes and links here). */
export function listIdentityMails(db: Executor, siteId: string, to: string) {
  return listMail(db, siteId, to, IDENTITY_MAIL_TEMPLATES);
}

export async function queueMail(ctx: BaseContext, siteId: string, template: IdentityMailTemplate, mail: Mail): Promise<void> {
  // Identity mails are plain text; their HTML part (and mailbox preview) is that text, escaped.
  const html = mail.html ?? `<pre style="font-family: inherit; white-space: pre-wrap">${escapeHtml(mail.text)}</pre>`;
  await enqueueMail({ db: ctx.db, site: { id: siteId }, deps: ctx.deps }, { template, to: mail.to, subject: mail.subject, text: mail.text, html });
}
