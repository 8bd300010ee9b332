import { envInt } from '../../env.js';
/** Tunables of the outbox worker, webhook deliveries and mail sending (docs/events.md lists the env names). */
export interface EventsSettings {
  /** Run the delivery worker in this process (EVENTS_WORKER=off turns it off, e.g. API-only replicas). */
  workerEnabled: boolean;
  /** How long the worker sleeps when it found nothing to do. */
  pollIntervalMs: number;
  /** Rows claimed per round (events fanned out, deliveries sent concurrently, mails sent). */
  batchSize: number;
  /** How long a claimed delivery or mail stays ours; a crashed worker's rows are retried after it. */
  leaseMs: number;
  /** Timeout of one webhook request (must stay well below leaseMs). */
  requestTimeoutMs: number;
  /** First retry delay; doubles each attempt up to backoffMaxMs, with jitter. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** A failing delivery is retried at least this long after it was created, then abandoned. */
  retryWindowMs: number;
  /** A subscription is disabled after this many consecutive failed attempts... */
  disableAfterFailures: number;
  /** ...when the failure streak is also at least this old. */
  disableAfterMs: number;
  /** Sender address of notification e-mails. */
  mailFrom: string;
  /**
   * Which events get an outbox row: `subscribed` (default) only those an active webhook subscription of
   * the site matches or that can send a mail, so a write nobody listens to costs no event row; `all`
   * keeps every event for the retention period too (EVENTS_RECORD=all, e.g. as an audit trail).
   */
  record: EventRecording;
}

export type EventRecording = 'subscribed' | 'all';
const EVENT_RECORDINGS: readonly EventRecording[] = ['subscribed', 'all'];

const HOUR = 3_600_000;

export const DEFAULT_EVENTS_SETTINGS: EventsSettings = {
  workerEnabled: true,
  pollIntervalMs: 1_000,
  batchSize: 50,
  leaseMs: 60_000,
  requestTimeoutMs: 10_000,
  backoffBaseMs: 10_000,
  backoffMaxMs: HOUR,
  retryWindowMs: 24 * HOUR,
  disableAfterFailures: 100,
  disableAfterMs: 72 * HOUR,
  mailFrom: 'Vitrine <no-reply@localhost>',
  record: 'subscribed',
};

/** Bounds that keep a misconfiguration from turning the worker into a busy loop or a stuck one. */
const MAX_BATCH_SIZE = 500;
const MIN_POLL_MS = 5;


export function loadEventsSettings(env: NodeJS.ProcessEnv = process.env): EventsSettings {
  const d = DEFAULT_EVENTS_SETTINGS;
  const s: EventsSettings = {
    workerEnabled: !['off', 'false', '0'].includes((env.EVENTS_WORKER ?? '').toLowerCase()),
    pollIntervalMs: Math.max(MIN_POLL_MS, envInt(env, 'EVENTS_POLL_MS', d.pollIntervalMs)),
    batchSize: Math.min(MAX_BATCH_SIZE, Math.max(1, envInt(env, 'EVENTS_BATCH_SIZE', d.batchSize))),
    leaseMs: envInt(env, 'EVENTS_LEASE_MS', d.leaseMs),
    requestTimeoutMs: envInt(env, 'WEBHOOK_TIMEOUT_MS', d.requestTimeoutMs),
    backoffBaseMs: envInt(env, 'WEBHOOK_BACKOFF_BASE_MS', d.backoffBaseMs),
    backoffMaxMs: envInt(env, 'WEBHOOK_BACKOFF_MAX_MS', d.backoffMaxMs),
    retryWindowMs: envInt(env, 'WEBHOOK_RETRY_WINDOW_MS', d.retryWindowMs),
    disableAfterFailures: Math.max(1, envInt(env, 'WEBHOOK_DISABLE_AFTER_FAILURES', d.disableAfterFailures)),
    disableAfterMs: envInt(env, 'WEBHOOK_DISABLE_AFTER_MS', d.disableAfterMs),
    mailFrom: env.MAIL_FROM || d.mailFrom,
    record: eventRecording(env.EVENTS_RECORD, d.record),
  };
  if (s.requestTimeoutMs >= s.leaseMs) throw new Error('WEBHOOK_TIMEOUT_MS must be smaller than EVENTS_LEASE_MS');
  return s;
}

function eventRecording(value: string | undefined, fallback: EventRecording): EventRecording {
  if (!value) return fallback;
  const mode = EVENT_RECORDINGS.find((m) => m === value.toLowerCase());
  if (!mode) throw new Error(`EVENTS_RECORD must be one of ${EVENT_RECORDINGS.join(', ')}`);
  return mode;
}
