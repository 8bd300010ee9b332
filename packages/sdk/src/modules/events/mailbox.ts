/**
 * The notification mailbox (`@vitrine/sdk/events` -> `mailbox`): our extension. Every e-mail the
 * server queued, sent or stored for the site, newest first. Elevated.
 */
import type * as wire from '@vitrine/types/events';
import { defineMethod } from '../../define.js';
import type { FromWire } from '../../wire-types.js';
import type { LogPage } from './webhooks.js';

export const MAIL_STATUSES = ['PENDING', 'SENT', 'STORED', 'FAILED'] as const satisfies readonly wire.MailStatus[];
export type MailStatus = wire.MailStatus;

/** A mail in the caller's names; `_createdDate` and `sentDate` as Date. */
export type Mail = FromWire<wire.NotificationMail, 'createdDate' | 'sentDate'>;

/** Elevated: `mailbox.listMails({ status, template, limit, offset })` -> `{ mails, metadata }`. */
export const listMails = defineMethod((client, options: { status?: MailStatus; template?: string; limit?: number; offset?: number } = {}) =>
  client.request<{ mails: Mail[]; metadata: LogPage }>({ method: 'GET', path: '/notifications/v1/mails', payload: { ...options }, decode: { dates: ['mails.createdDate', 'mails.sentDate'] } }));
