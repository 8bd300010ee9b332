import type { Caller, RequestContext } from './context.js';
import { violation } from './errors.js';
import type { SiteRoute } from './route.js';
import { stringifyForWire } from './wire.js';
import { hashRequest, IDEMPOTENCY_KEY_MAX_LENGTH, isValidIdempotencyKey, withIdempotency } from '../storage/idempotency.js';

/** Request header that makes a call of an `idempotent` route idempotent. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Response header set when the response is the stored first result of an earlier call. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

/** The header's key, undefined when absent; a malformed key is a 400 field violation. */
export function idempotencyKeyOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (header.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw violation(IDEMPOTENCY_KEY_HEADER, `must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`, 'MAX_LENGTH', { max: IDEMPOTENCY_KEY_MAX_LENGTH });
  }
  if (!isValidIdempotencyKey(header)) {
    throw violation(IDEMPOTENCY_KEY_HEADER, 'must be 1 or more of the characters A-Z a-z 0-9 _ . : ~ + = / -', 'FORMAT');
  }
  return header;
}

/** A caller's identity inside idempotency scopes: one caller's key never answers another's request. */
export function callerKey(caller: Caller): string {
  switch (caller.kind) {
    case 'visitor': return `visitor:${caller.visitorId}`;
    case 'member': return `member:${caller.memberId}`;
    case 'owner': return `owner:${caller.apiKeyId}`;
    case 'app': return `app:${caller.appId}`;
    default: return 'anonymous';
  }
}

export interface IdempotentAnswer {
  status: number;
  /** The wire JSON text of the first response. */
  body: string;
  replayed: boolean;
}

/**
 * Runs a route declared `idempotent: true` under a key: per (site, route, caller, key), hashed over
 * method, path and the merged input, the handler and the record in one transaction.
 */
export async function answerIdempotently(
  ctx: RequestContext,
  def: SiteRoute,
  request: { method: string; path: string; input: Record<string, unknown> },
  parsed: unknown,
  key: string,
): Promise<IdempotentAnswer> {
  const outcome = await withIdempotency<string>(ctx.db, {
    siteId: ctx.site.id,
    scope: `http:${def.method} ${def.path}:${callerKey(ctx.caller)}`,
    key,
    requestHash: hashRequest(request.method, request.path, request.input),
  }, async (trx) => ({ status: 200, body: stringifyForWire(await def.handler({ ...ctx, db: trx }, parsed, { idempotencyKey: key })) }));
  return { status: outcome.status, body: outcome.body, replayed: outcome.replayed };
}
