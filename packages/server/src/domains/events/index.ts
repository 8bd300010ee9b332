// What other domains may use of events: recording outbox events inside their own transaction.
export { eventIsRecorded, recordEvent, recordEvents } from './service.js';
// The one e-mail outbox: other domains queue mails (and read their own back) through these.
export { enqueueMail, listMail } from './service.js';
export { escapeHtml } from './mail-templates.js';
