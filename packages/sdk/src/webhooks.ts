/**
 * Verify and parse Vitrine webhooks in a receiver (`@vitrine/sdk/webhooks`). Uses Web Crypto only, so
 * it runs on Node 20+, Deno, Bun, Cloudflare Workers and browsers.
 *
 * The `vitrine-signature` header is `t=<unix seconds>,v1=<hex HMAC-SHA256>`, the HMAC keyed by the
 * subscription secret over `"<t>." + rawBody`. Verify over the raw body bytes exactly as received,
 * before any JSON parsing.
 */

import type { WebhookEnvelope } from '@vitrine/types/events';

export const SIGNATURE_HEADER = 'vitrine-signature';
/** Largest accepted distance between the signature's timestamp and now (replay window). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export type WebhookVerificationErrorCode =
  | 'MISSING_SIGNATURE' | 'MALFORMED_SIGNATURE' | 'TIMESTAMP_OUT_OF_TOLERANCE' | 'SIGNATURE_MISMATCH' | 'INVALID_PAYLOAD';

export class WebhookVerificationError extends Error {
  constructor(readonly code: WebhookVerificationErrorCode, message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export interface VerifyOptions {
  /** The subscription's secret; several while rotating (any one matching is enough). */
  secret: string | string[];
  toleranceSeconds?: number;
  /** Current time in milliseconds (tests). */
  now?: () => number;
}

/**
 * A webhook body as the receiver gets it: the wire envelope (`@vitrine/types/events`, names as sent:
 * webhooks do not go through the SDK's codec) with `eventTime` as a Date and the entity typed by the
 * receiver. `id` is the same on every retry and redelivery (de-duplicate on it); `entityEventSequence`
 * counts 1, 2, 3... per entity in commit order; `entity` is the entity after the change (before it,
 * for `deleted`).
 */
export type WebhookEvent<E = unknown> = Omit<WebhookEnvelope, 'eventTime' | 'entity'> & { eventTime: Date; entity: E | null };

const encoder = new TextEncoder();

function toHex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Compares without an early exit, so timing does not reveal how much of a guess was right. */
function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

async function hmacHex(secret: string, message: Uint8Array): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return toHex(await crypto.subtle.sign('HMAC', key, message as BufferSource));
}

function bodyBytes(rawBody: string | Uint8Array): Uint8Array {
  return typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody;
}

/** Parses `t=...,v1=...[,v1=...]`. */
export function parseSignatureHeader(header: string): { timestamp: number; signatures: string[] } {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (timestamp === undefined || signatures.length === 0) throw new WebhookVerificationError('MALFORMED_SIGNATURE', 'The signature header is not "t=<seconds>,v1=<hex>"');
  return { timestamp, signatures };
}

/** Throws WebhookVerificationError unless the header signs this exact body with one of the secrets, recently. */
export async function verifyWebhookSignature(rawBody: string | Uint8Array, header: string | null | undefined, options: VerifyOptions): Promise<void> {
  if (!header) throw new WebhookVerificationError('MISSING_SIGNATURE', `No ${SIGNATURE_HEADER} header`);
  const { timestamp, signatures } = parseSignatureHeader(header);
  const nowSeconds = Math.floor((options.now?.() ?? Date.now()) / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(nowSeconds - timestamp) > tolerance) {
    throw new WebhookVerificationError('TIMESTAMP_OUT_OF_TOLERANCE', `The signature timestamp is more than ${tolerance} s from now`);
  }
  const body = bodyBytes(rawBody);
  const signed = new Uint8Array(encoder.encode(`${timestamp}.`).length + body.length);
  signed.set(encoder.encode(`${timestamp}.`), 0);
  signed.set(body, signed.length - body.length);
  const secrets = Array.isArray(options.secret) ? options.secret : [options.secret];
  for (const secret of secrets) {
    const expected = await hmacHex(secret, signed);
    if (signatures.some((s) => timingSafeEqual(s, expected))) return;
  }
  throw new WebhookVerificationError('SIGNATURE_MISMATCH', 'The signature does not match the body');
}

/** Verifies, then parses the body into a WebhookEvent. */
export async function parseWebhook<E = unknown>(rawBody: string | Uint8Array, header: string | null | undefined, options: VerifyOptions): Promise<WebhookEvent<E>> {
  await verifyWebhookSignature(rawBody, header, options);
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody));
  } catch {
    throw new WebhookVerificationError('INVALID_PAYLOAD', 'The body is not JSON');
  }
  const o = parsed as Record<string, unknown> | null;
  if (!o || typeof o !== 'object' || typeof o.id !== 'string' || typeof o.entityFqdn !== 'string' || typeof o.eventTime !== 'string') {
    throw new WebhookVerificationError('INVALID_PAYLOAD', 'The body is not a Vitrine event');
  }
  return { ...(o as unknown as WebhookEvent<E>), eventTime: new Date(o.eventTime) };
}

/** For fetch-style handlers: reads the Request's raw body and header, verifies and parses. */
export async function parseWebhookRequest<E = unknown>(request: Request, options: VerifyOptions): Promise<WebhookEvent<E>> {
  const body = new Uint8Array(await request.arrayBuffer());
  return parseWebhook<E>(body, request.headers.get(SIGNATURE_HEADER), options);
}
