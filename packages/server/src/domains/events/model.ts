import { createHmac } from 'node:crypto';

/** An event type filter of a subscription; `*` matches anything, `a.b.*` any fqdn under `a.b.`. */
export type { EventTypePattern } from '@vitrine/types/events';
import type { EventTypePattern } from '@vitrine/types/events';

export function matchesPattern(pattern: EventTypePattern, entityFqdn: string, slug: string): boolean {
  const fqdnOk = pattern.entityFqdn === '*'
    || pattern.entityFqdn === entityFqdn
    || (pattern.entityFqdn.endsWith('.*') && entityFqdn.startsWith(pattern.entityFqdn.slice(0, -1)));
  return fqdnOk && (pattern.slug === '*' || pattern.slug === slug);
}

export function matchesAny(patterns: EventTypePattern[], entityFqdn: string, slug: string): boolean {
  return patterns.some((p) => matchesPattern(p, entityFqdn, slug));
}

/** The JSON body every webhook receives (docs/events.md): the wire shape of `@vitrine/types/events`. */
export type { WebhookEnvelope } from '@vitrine/types/events';
import type { EventActorType } from '@vitrine/types/events';

const ACTOR_TYPES = ['ANONYMOUS_VISITOR', 'MEMBER', 'WIX_USER', 'APP'] as const satisfies readonly EventActorType[];

/** The stored actor type (text written from `actorType(caller)`) as the envelope's type. */
export function eventActorType(stored: string | null): EventActorType | null {
  return ACTOR_TYPES.find((t) => t === stored) ?? null;
}

/** Exponential backoff with "equal jitter": half the delay fixed, half random, so retries of many deliveries spread out. */
export function backoffDelayMs(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.min(30, Math.max(0, attempt - 1)));
  return Math.round(exp / 2 + random() * (exp / 2));
}

/**
 * What to do after an HTTP answer: 2xx succeeded; 408, 429 and 5xx are retried; anything else
 * (3xx, since redirects are not followed, and other 4xx) fails for good. Network errors are retried.
 */
export function classifyStatus(status: number): 'SUCCEEDED' | 'RETRY' | 'FAILED' {
  if (status >= 200 && status < 300) return 'SUCCEEDED';
  if (status === 408 || status === 429 || status >= 500) return 'RETRY';
  return 'FAILED';
}

/** `Retry-After` in seconds or as an HTTP date, in milliseconds from now; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export const SIGNATURE_HEADER = 'vitrine-signature';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed by the subscription secret>`. */
export function signatureHeader(secret: string, timestampSeconds: number, body: string): string {
  const v1 = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
  return `t=${timestampSeconds},v1=${v1}`;
}
