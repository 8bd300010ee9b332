import { randomUUID } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import type { AppDeps } from '../../http/context.js';
import { PermanentJobError } from '../../jobs/errors.js';
import { defineJobKind, type JobContext } from '../../jobs/kinds.js';
import { exponentialBackoffMs } from '../../jobs/runner.js';
import { enqueueJob } from '../../jobs/service.js';
import type { Executor } from '../../storage/database.js';
import { inTransaction } from '../../storage/transaction.js';
import type { Site } from '../sites/index.js';
import type { RenderedMail } from './mail-templates.js';
import { findMails, finishMail, insertMail, storeMails, type MailRow } from './store.js';

/**
 * The one way e-mail leaves the server. Every mail (identity codes and links, notification templates)
 * is a row of `notification_mails`, queued in the transaction of the change it tells about
 * (enqueueMails below). A mail that can be sent (SMTP_URL set, an address to send to) is PENDING with
 * a `mail.send` job, which sends it with nodemailer; any other is STORED at once, for the dashboard's
 * mailbox, with no job to run (nothing could send it).
 */

/** Attempts of one mail (with the events backoff: about a day of retries), then FAILED. */
export const MAIL_MAX_ATTEMPTS = 30;
const ERROR_TEXT_MAX = 500;

const transports = new Map<string, Transporter>();

function transportFor(deps: AppDeps, url: string): Transporter {
  let t = transports.get(url);
  if (!t) {
    // Bounded waits, well below the job lease: a hanging SMTP server cannot make a second process send the mail too.
    const timeout = deps.config.events.requestTimeoutMs;
    t = nodemailer.createTransport({ url, connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout });
    transports.set(url, t);
  }
  return t;
}

/** Closes pooled SMTP connections (server close). */
export function closeMailTransports(): void {
  for (const t of transports.values()) t.close();
  transports.clear();
}

/** `<mail id@sender's domain>`: one per outbox row, so stable across its send attempts. */
export function messageIdOf(mailId: string, mailFrom: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(mailFrom)?.[1] ?? 'localhost';
  return `<${mailId}@${domain}>`;
}

/**
 * One job sends the mails queued together (an event's mails: a placed order mails the buyer and the
 * owner), each at most once: a retry sends only those still PENDING. `mailId` is the payload of jobs
 * queued before jobs carried several.
 */
export const sendMailJob = defineJobKind<{ mailIds?: string[]; mailId?: string }>({
  kind: 'mail.send',
  maxAttempts: MAIL_MAX_ATTEMPTS,
  backoffMs: (attempt, deps) => exponentialBackoffMs(attempt, deps.config.events.backoffBaseMs, deps.config.events.backoffMaxMs),
  async run(ctx, payload) {
    const ids = payload.mailIds ?? (payload.mailId ? [payload.mailId] : []);
    // Sent, stored or failed already (a second job for them, or a retry after some were settled): skipped.
    const pending = (await findMails(ctx.db, ids)).filter((mail) => mail.status === 'PENDING');
    const smtpUrl = ctx.deps.config.smtpUrl;
    // Queued by a server with SMTP_URL and run by one without: they stay in the mailbox, settled together.
    const unsendable = pending.filter((mail) => !smtpUrl || !mail.to_address);
    await storeMails(ctx.db, unsendable.map((mail) => mail.id));
    for (const mail of unsendable) ctx.log.info({ mailId: mail.id, template: mail.template }, 'mail stored in the mailbox (no SMTP_URL)');
    if (!smtpUrl) return;
    let retry: unknown;
    let permanent: PermanentJobError | undefined;
    for (const mail of pending) {
      if (!mail.to_address) continue;
      try {
        await sendOne(ctx, mail, smtpUrl);
      } catch (error) {
        // The other mails still go; the job fails or retries once all were tried.
        if (error instanceof PermanentJobError) permanent = error;
        else retry ??= error;
      }
    }
    if (retry) throw retry;
    if (permanent) throw permanent;
  },
});

/** Sends one mail and settles its row at once, so a retry of the job never sends it again. */
async function sendOne(ctx: JobContext, mail: MailRow, smtpUrl: string): Promise<void> {
  const { db, deps, log } = ctx;
  const attempts = ctx.job.attempt;
  try {
    await transportFor(deps, smtpUrl).sendMail({
      from: deps.config.events.mailFrom, to: mail.to_address, subject: mail.subject, text: mail.text, ...(mail.html ? { html: mail.html } : {}),
      // The same Message-ID on every attempt: a retry after the server accepted the mail but before
      // the row was settled (a crash, a lost answer) is a duplicate the receiver can recognise.
      messageId: messageIdOf(mail.id, deps.config.events.mailFrom),
    });
  } catch (err) {
    const code = (err as { responseCode?: unknown }).responseCode;
    const permanent = typeof code === 'number' && code >= 500 && code < 600;
    const lastError = (err instanceof Error ? err.message : String(err)).slice(0, ERROR_TEXT_MAX);
    const giveUp = permanent || attempts >= ctx.job.maxAttempts;
    await finishMail(db, mail.id, { status: giveUp ? 'FAILED' : 'PENDING', attempts, lastError, sentDate: null });
    if (permanent) throw new PermanentJobError(lastError);
    throw err;
  }
  await finishMail(db, mail.id, { status: 'SENT', attempts, lastError: null, sentDate: new Date().toISOString() });
  log.info({ mailId: mail.id, template: mail.template }, 'mail sent');
}

export interface MailInput extends RenderedMail {
  eventId?: string;
}

/**
 * Where mails are queued: the change's executor and site, and whether this server sends mail at all
 * (`config.smtpUrl`; a request context or the app's deps carry it).
 */
export interface MailQueue {
  db: Executor;
  site: Pick<Site, 'id'>;
  deps: { config: { smtpUrl?: string | undefined } };
}

/**
 * Queues e-mails: rows of the one outbox (`notification_mails`, read by the mailbox route) and one
 * `mail.send` job for those that can be sent. Call it inside the change's transaction like
 * recordEvent: the mails exist, and go out, exactly when the change committed. Without SMTP_URL (or
 * without an address) a mail is STORED in the mailbox right away: a job would only have marked it so,
 * at the cost of four more commits per mail. Answers the mail ids in order.
 */
export async function enqueueMails(queue: MailQueue, mails: MailInput[]): Promise<string[]> {
  if (mails.length === 0) return [];
  const now = new Date().toISOString();
  const ids = mails.map(() => randomUUID());
  const sending = Boolean(queue.deps.config.smtpUrl);
  const pending: string[] = [];
  await inTransaction(queue.db, async (trx) => {
    for (const [i, mail] of mails.entries()) {
      const sendable = sending && Boolean(mail.to);
      if (sendable) pending.push(ids[i]!);
      await insertMail(trx, {
        id: ids[i]!,
        site_id: queue.site.id,
        template: mail.template,
        to_address: mail.to,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        event_id: mail.eventId ?? null,
        status: sendable ? 'PENDING' : 'STORED',
        // Legacy columns of the worker that sent mails before the job system; the mail.send job carries the schedule now.
        next_attempt_at: now,
        give_up_after: now,
        created_date: now,
      });
    }
    if (pending.length > 0) await enqueueJob(trx, sendMailJob, { mailIds: pending }, { siteId: queue.site.id });
  });
  return ids;
}

/** `enqueueMails` of one mail. */
export async function enqueueMail(queue: MailQueue, mail: MailInput): Promise<string> {
  const [id] = await enqueueMails(queue, [mail]);
  return id!;
}
