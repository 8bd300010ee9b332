// What other domains may use of events: recording outbox events inside their own transaction.
export { recordEvent, recordEvents } from './service.js';
