import { createHash, randomUUID } from 'node:crypto';
import type { Kysely, Migration } from 'kysely';
import type { Executor } from './database.js';
import { inTransaction } from './transaction.js';

/**
 * Idempotency records: the first result of a keyed request, so a repeat gets that result instead of
 * doing the work again (docs/operations.md).
 *
 * A record is claimed by inserting it IN_PROGRESS (insert-or-nothing on site + scope + key, committed
 * at once so concurrent repeats see it), then the work runs and the record turns COMPLETED with the
 * response, in the work's own transaction when the work is transactional. A failed attempt deletes its
 * claim, so a retry runs again. A claim whose holder died (process killed) is taken over once its
 * lease has run out; the holder's completion is fenced on its claim token, so at most one of them
 * commits.
 */

/** How long a completed record answers repeats when the caller does not say. */
export const IDEMPOTENCY_DEFAULT_TTL_MS = 24 * 60 * 60 * 1000;
/** Upper bound on a record's lifetime. */
export const IDEMPOTENCY_MAX_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** How long an IN_PROGRESS claim stands before a repeat may take it over (its holder presumed dead). */
export const IDEMPOTENCY_LEASE_MS = 60_000;
/** How long a concurrent repeat waits for the first attempt before answering 409 IDEMPOTENCY_KEY_IN_USE. */
export const IDEMPOTENCY_WAIT_MS = 10_000;
/** Pause between two looks at a record another attempt holds. */
export const IDEMPOTENCY_POLL_MS = 20;
/** Most expired records one prune call deletes. */
export const IDEMPOTENCY_PRUNE_BATCH = 1_000;
/** Idempotency keys: 1 to this many characters out of IDEMPOTENCY_KEY_PATTERN (a UUID fits). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:~+=/-]+$/;
/** Scopes are built by code (route + caller, operation name + caller), never by clients. */
const SCOPE_MAX_LENGTH = 500;

export type IdempotencyState = 'IN_PROGRESS' | 'COMPLETED';

export interface IdempotencyRecordTable {
  id: string;
  site_id: string;
  scope: string;
  key: string;
  request_hash: string;
  state: IdempotencyState;
  /** Token of the attempt holding an IN_PROGRESS claim. */
  claim: string | null;
  lease_until: string | null;
  response_status: number | null;
  /** The first response's body as JSON text (text on both dialects, so it comes back byte for byte). */
  response_body: string | null;
  created_at: string;
  expires_at: string;
}

declare module './schema.js' {
  interface Database {
    idempotency_records: IdempotencyRecordTable;
  }
}

export const idempotencyMigration: Migration = {
  async up(db: Kysely<any>) { // eslint-disable-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
    await db.schema
      .createTable('idempotency_records')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('site_id', 'text', (c) => c.notNull())
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('request_hash', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('claim', 'text')
      .addColumn('lease_until', 'text')
      .addColumn('response_status', 'integer')
      .addColumn('response_body', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('idempotency_records_key', ['site_id', 'scope', 'key'])
      .execute();
    await db.schema.createIndex('idempotency_records_expires').on('idempotency_records').column('expires_at').execute();
  },
};

export interface IdempotencySpec {
  siteId: string;
  /** What the key is unique within: e.g. `http:POST /wix-data/v2/items:owner:<id>`. */
  scope: string;
  key: string;
  /** Hash of the request (hashRequest); the same key with another hash is refused. */
  requestHash: string;
  /** Lifetime of the record; IDEMPOTENCY_DEFAULT_TTL_MS when absent, at most IDEMPOTENCY_MAX_TTL_MS. */
  ttlMs?: number;
  /**
   * true (default): `run` gets a transaction and the record completes in it, so the work and its
   * record commit together. false: `run` gets the database itself (work of several transactions or
   * outside the database) and the record completes after it; such work must be safe to run again.
   */
  transactional?: boolean;
  /** How long a concurrent repeat waits; IDEMPOTENCY_WAIT_MS when absent. */
  waitMs?: number;
  /** Milliseconds since the epoch; tests move time forward. */
  clock?: () => number;
}

export interface IdempotentResponse<B> {
  status: number;
  body: B;
}

export interface IdempotentOutcome<B> extends IdempotentResponse<B> {
  /** true when this is the stored result of an earlier attempt. */
  replayed: boolean;
}

/**
 * A refused key: still running elsewhere, or used with another request. Storage's own error (it knows
 * no HTTP); http/app.ts answers it as the 409 application error with this code and message. `status`
 * says it is a conflict to callers outside HTTP (jobs, tests).
 */
export class IdempotencyConflict extends Error {
  readonly status = 409;
  constructor(readonly code: 'IDEMPOTENCY_KEY_IN_USE' | 'IDEMPOTENCY_KEY_REUSED', message: string) {
    super(message);
  }
}
export const idempotencyKeyInUse = () =>
  new IdempotencyConflict('IDEMPOTENCY_KEY_IN_USE', 'Another request with this idempotency key is still running; retry later');
export const idempotencyKeyReused = () =>
  new IdempotencyConflict('IDEMPOTENCY_KEY_REUSED', 'This idempotency key was used with a different request');

/** Whether `key` is an acceptable idempotency key (length and characters). */
export function isValidIdempotencyKey(key: string): boolean {
  return key.length >= 1 && key.length <= IDEMPOTENCY_KEY_MAX_LENGTH && IDEMPOTENCY_KEY_PATTERN.test(key);
}

/** JSON with object keys sorted at every level, so equal inputs hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonical(value));
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString('base64') };
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, canonical(v)]));
  }
  return value;
}

/** SHA-256 (hex) of the canonical JSON of `parts`. */
export function hashRequest(...parts: unknown[]): string {
  return createHash('sha256').update(canonicalJson(parts)).digest('hex');
}

/** Thrown inside the work's transaction when this attempt's claim was taken over: the work rolls back. */
class ClaimLost extends Error {}

type Claimed = { kind: 'claimed'; claim: string } | { kind: 'existing'; record: IdempotencyRecordTable } | { kind: 'retry' };

/**
 * Runs `run` once per (site, scope, key): the first call runs it and stores its response; a repeat
 * with the same request hash gets that response (`replayed: true`); a repeat while the first still
 * runs waits for it (bounded, then 409 IDEMPOTENCY_KEY_IN_USE); another request hash under the key is
 * refused (409 IDEMPOTENCY_KEY_REUSED). When `run` throws, the claim is removed and the error passes
 * on, so a retry runs again. `db` must be the database itself, not a transaction: the claim has to be
 * visible to other connections before the work starts.
 */
export async function withIdempotency<B>(
  db: Executor,
  spec: IdempotencySpec,
  run: (db: Executor) => Promise<IdempotentResponse<B>>,
): Promise<IdempotentOutcome<B>> {
  if (db.isTransaction) throw new Error('withIdempotency needs the database handle, not a transaction');
  if (!isValidIdempotencyKey(spec.key)) throw new Error('withIdempotency: invalid key (validate it at the edge)');
  if (spec.scope.length > SCOPE_MAX_LENGTH) throw new Error('withIdempotency: scope too long');
  const clock = spec.clock ?? Date.now;
  const deadline = Date.now() + (spec.waitMs ?? IDEMPOTENCY_WAIT_MS);
  let claim: string;
  for (;;) {
    const found = await claimRecord(db, spec, clock());
    if (found.kind === 'claimed') {
      claim = found.claim;
      break;
    }
    if (found.kind === 'existing') {
      const record = found.record;
      if (record.request_hash !== spec.requestHash) throw idempotencyKeyReused();
      if (record.state === 'COMPLETED') return { status: record.response_status ?? 200, body: JSON.parse(record.response_body ?? 'null') as B, replayed: true };
      if (Date.now() >= deadline) throw idempotencyKeyInUse();
      await sleep(IDEMPOTENCY_POLL_MS);
    }
  }

  try {
    const response = spec.transactional === false
      ? await completeAfter(db, spec, claim, run)
      : await inTransaction(db, (trx) => completeAfter(trx, spec, claim, run));
    return { ...response, replayed: false };
  } catch (error) {
    if (error instanceof ClaimLost) throw idempotencyKeyInUse();
    await releaseClaim(db, spec, claim).catch(() => {
      // The database failed too: the claim stays until its lease runs out, then a retry takes it over.
    });
    throw error;
  }
}

async function completeAfter<B>(db: Executor, spec: IdempotencySpec, claim: string, run: (db: Executor) => Promise<IdempotentResponse<B>>): Promise<IdempotentResponse<B>> {
  const response = await run(db);
  const result = await db.updateTable('idempotency_records')
    .set({ state: 'COMPLETED', claim: null, lease_until: null, response_status: response.status, response_body: JSON.stringify(response.body ?? null) })
    .where('site_id', '=', spec.siteId).where('scope', '=', spec.scope).where('key', '=', spec.key)
    .where('state', '=', 'IN_PROGRESS').where('claim', '=', claim)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new ClaimLost();
  return response;
}

/** Inserts the claim, or reads the record there; removes an expired record; takes over an abandoned claim. */
async function claimRecord(db: Executor, spec: IdempotencySpec, now: number): Promise<Claimed> {
  const claim = randomUUID();
  const ttl = Math.min(Math.max(spec.ttlMs ?? IDEMPOTENCY_DEFAULT_TTL_MS, 1), IDEMPOTENCY_MAX_TTL_MS);
  const inserted = await db.insertInto('idempotency_records').values({
    id: randomUUID(),
    site_id: spec.siteId,
    scope: spec.scope,
    key: spec.key,
    request_hash: spec.requestHash,
    state: 'IN_PROGRESS',
    claim,
    lease_until: iso(now + IDEMPOTENCY_LEASE_MS),
    response_status: null,
    response_body: null,
    created_at: iso(now),
    expires_at: iso(now + ttl),
  }).onConflict((oc) => oc.columns(['site_id', 'scope', 'key']).doNothing()).executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return { kind: 'claimed', claim };

  const record = await db.selectFrom('idempotency_records').selectAll()
    .where('site_id', '=', spec.siteId).where('scope', '=', spec.scope).where('key', '=', spec.key)
    .executeTakeFirst();
  if (!record) return { kind: 'retry' }; // released between our insert and read
  if (record.expires_at <= iso(now)) {
    await db.deleteFrom('idempotency_records').where('id', '=', record.id).where('expires_at', '<=', iso(now)).execute();
    return { kind: 'retry' };
  }
  if (record.state === 'IN_PROGRESS' && record.request_hash === spec.requestHash && record.lease_until !== null && record.lease_until < iso(now)) {
    const taken = await db.updateTable('idempotency_records')
      .set({ claim, lease_until: iso(now + IDEMPOTENCY_LEASE_MS) })
      .where('id', '=', record.id).where('state', '=', 'IN_PROGRESS').where('lease_until', '=', record.lease_until)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) return { kind: 'claimed', claim };
    return { kind: 'retry' };
  }
  return { kind: 'existing', record };
}

async function releaseClaim(db: Executor, spec: IdempotencySpec, claim: string): Promise<void> {
  await db.deleteFrom('idempotency_records')
    .where('site_id', '=', spec.siteId).where('scope', '=', spec.scope).where('key', '=', spec.key)
    .where('state', '=', 'IN_PROGRESS').where('claim', '=', claim)
    .execute();
}

/**
 * Deletes up to `limit` records whose lifetime ended (a job calls this periodically; repeats after
 * expiry run again anyway, since claimRecord removes an expired record it meets). Returns how many.
 */
export async function pruneIdempotencyRecords(db: Executor, options: { now?: number; limit?: number } = {}): Promise<number> {
  const now = iso(options.now ?? Date.now());
  const limit = Math.min(Math.max(options.limit ?? IDEMPOTENCY_PRUNE_BATCH, 1), IDEMPOTENCY_PRUNE_BATCH);
  const result = await db.deleteFrom('idempotency_records')
    .where('id', 'in', (eb) => eb.selectFrom('idempotency_records').select('id').where('expires_at', '<=', now).limit(limit))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The stored record of a key, for tests and diagnostics. */
export async function findIdempotencyRecord(db: Executor, siteId: string, scope: string, key: string): Promise<IdempotencyRecordTable | undefined> {
  return db.selectFrom('idempotency_records').selectAll()
    .where('site_id', '=', siteId).where('scope', '=', scope).where('key', '=', key)
    .executeTakeFirst();
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
