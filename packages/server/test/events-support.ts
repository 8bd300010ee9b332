import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { parseWebhook, SIGNATURE_HEADER, type WebhookEvent } from '@vitrine/sdk/webhooks';
import { DEFAULT_EVENTS_SETTINGS, type EventsSettings } from '../src/domains/events/settings.js';
import { recordEvent, type DomainEvent } from '../src/domains/events/service.js';
import { inTransaction } from '../src/storage/transaction.js';
import type { RequestContext } from '../src/http/context.js';
import type { TestServer } from './harness.js';

/**
 * Worker settings that keep test wall time short: fast polling, 50 ms backoff base. Timeout and lease
 * stay generous: on a loaded machine a request that times out after the receiver took it is repeated
 * (at least once), and tests that count exact deliveries must not see that.
 */
export const FAST_EVENTS: EventsSettings = {
  ...DEFAULT_EVENTS_SETTINGS,
  pollIntervalMs: 20,
  backoffBaseMs: 50,
  backoffMaxMs: 400,
  requestTimeoutMs: 10_000,
  leaseMs: 30_000,
};

/** Hook timeout for starting a server with the demo store: PostgreSQL on a busy 2-core machine can be slow. */
export const SLOW_START_MS = 120_000;

/** The same as environment variables, for spawned server processes. */
export const FAST_EVENTS_ENV: Record<string, string> = {
  EVENTS_POLL_MS: '20',
  WEBHOOK_BACKOFF_BASE_MS: '50',
  WEBHOOK_BACKOFF_MAX_MS: '400',
  WEBHOOK_TIMEOUT_MS: '2000',
  EVENTS_LEASE_MS: '3000',
  VITRINE_WEBHOOKS_ALLOW_PRIVATE: 'true', // the receivers listen on 127.0.0.1
};

export interface Arrival {
  index: number;
  eventId: string;
  entityKey: string;
  sequence: number;
  status: number | 'destroy';
  attemptHeader: string | undefined;
}

/** What the receiver answers to one request: an HTTP status, or 'destroy' to cut the connection. */
export type Policy = (event: WebhookEvent, attemptOfEvent: number, requestIndex: number) => number | 'destroy';

/**
 * A real webhook receiver on 127.0.0.1 that verifies every signature with the SDK helper, answers by
 * `policy`, and records arrivals so tests can check order and exactly-once after de-duplication.
 */
export class Receiver {
  readonly arrivals: Arrival[] = [];
  /** First accepted copy of each event, by event id. */
  readonly accepted = new Map<string, WebhookEvent>();
  /** 2xx answers per event id (more than one means a duplicate delivery). */
  readonly acceptCounts = new Map<string, number>();
  readonly badSignatures: string[] = [];
  private readonly attempts = new Map<string, number>();
  private server!: http.Server;
  url = '';
  secret = '';

  constructor(public policy: Policy = () => 200) {}

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void this.handle(Buffer.concat(chunks), req, res);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
    return this;
  }

  private async handle(body: Buffer, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let event: WebhookEvent;
    try {
      event = await parseWebhook(new Uint8Array(body), req.headers[SIGNATURE_HEADER] as string | undefined, { secret: this.secret });
    } catch (err) {
      this.badSignatures.push(String(err));
      res.writeHead(400).end('bad signature');
      return;
    }
    const attempt = (this.attempts.get(event.id) ?? 0) + 1;
    this.attempts.set(event.id, attempt);
    const index = this.arrivals.length;
    const answer = this.policy(event, attempt, index);
    this.arrivals.push({
      index, eventId: event.id, entityKey: `${event.entityFqdn}/${event.entityId}`, sequence: event.entityEventSequence,
      status: answer, attemptHeader: req.headers['vitrine-delivery-attempt'] as string | undefined,
    });
    if (answer === 'destroy') {
      req.socket.destroy();
      return;
    }
    if (answer >= 200 && answer < 300) {
      if (!this.accepted.has(event.id)) this.accepted.set(event.id, event);
      this.acceptCounts.set(event.id, (this.acceptCounts.get(event.id) ?? 0) + 1);
    }
    res.writeHead(answer, { 'content-type': 'text/plain' }).end(`answer ${answer}`);
  }

  /**
   * Order violations: an arrival of event n of an entity before every earlier event of that entity
   * (that was ever accepted) had been accepted.
   */
  orderViolations(): string[] {
    const firstAccept = new Map<string, number>();
    for (const a of this.arrivals) {
      const key = `${a.entityKey}#${a.sequence}`;
      if (typeof a.status === 'number' && a.status < 300 && !firstAccept.has(key)) firstAccept.set(key, a.index);
    }
    const problems: string[] = [];
    for (const a of this.arrivals) {
      for (let s = 1; s < a.sequence; s++) {
        const at = firstAccept.get(`${a.entityKey}#${s}`);
        if (at !== undefined && at > a.index) problems.push(`${a.entityKey}: #${a.sequence} arrived before #${s} was accepted`);
      }
    }
    return problems;
  }

  /** Accepted sequences per entity, in acceptance order. */
  sequencesByEntity(): Map<string, number[]> {
    const out = new Map<string, number[]>();
    for (const e of this.accepted.values()) {
      const key = `${e.entityFqdn}/${e.entityId}`;
      out.set(key, [...(out.get(key) ?? []), e.entityEventSequence]);
    }
    return out;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A context as a domain service gets it, for an owner of the test site (records events like a route would). */
export function ownerContext(t: TestServer): RequestContext {
  const deps = t.server.deps;
  return {
    requestId: randomUUID(), deps, db: deps.storage.db, dialect: deps.storage.dialect, caller: { kind: 'owner', apiKeyId: 'test-key' },
    origin: t.url, ip: '127.0.0.1', log: deps.log, site: t.site,
  };
}

/** Records one event in its own transaction, as a domain change would. */
export async function recordInTransaction(ctx: RequestContext, event: DomainEvent): Promise<void> {
  await inTransaction(ctx.db, (trx) => recordEvent({ ...ctx, db: trx }, event));
}
