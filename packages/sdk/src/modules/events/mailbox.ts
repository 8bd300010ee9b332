/**
 * The notification mailbox (`@vitrine/sdk/events` -> `mailbox`): our extension. Every e-mail the
 * server queued, sent or stored for the site, newest first. Elevated.
 */
import { defineMethod } from '../../define.js';
import type { LogPage } from './webhooks.js';

export const MAIL_STATUSES = ['PENDING', 'SENT', 'STORED', 'FAILED'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

export interface Mail {
  _id: string;
  template: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  eventId: string | null;
  status: MailStatus;
  attempts: number;
  lastError: string | null;
  _createdDate: Date;
  sentDate: Date | null;
}

/** Elevated: `mailbox.listMails({ status, template, limit, offset })` -> `{ mails, metadata }`. */
export const listMails = defineMethod((client, options: { status?: MailStatus; template?: string; limit?: number; offset?: number } = {}) =>
  client.request<{ mails: Mail[]; metadata: LogPage }>({ method: 'GET', path: '/notifications/v1/mails', payload: { ...options }, decode: { dates: ['mails.createdDate', 'mails.sentDate'] } }));
