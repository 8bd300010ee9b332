import { describe, expect, it } from 'vitest';
import { parseWebhook, parseWebhookRequest, verifyWebhookSignature, WebhookVerificationError, SIGNATURE_HEADER } from '@vitrine/sdk/webhooks';
import { signatureHeader, backoffDelayMs, classifyStatus, matchesPattern, retryAfterMs } from '../src/domains/events/model.js';

const SECRET = 'whsec_test_secret_of_enough_length';
const body = JSON.stringify({ id: 'e1', siteId: 's', entityFqdn: 'a.b', slug: 'created', entityId: 'x', entityEventSequence: 1, eventTime: '2026-01-02T03:04:05.000Z', actor: { type: null, id: null }, entity: { név: 'ü' }, data: {} });
const now = 1_800_000_000;

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'accepted';
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookVerificationError);
    return (err as WebhookVerificationError).code;
  }
}

describe('@vitrine/sdk/webhooks against the server signer', () => {
  const opts = { secret: SECRET, now: () => now * 1000 };

  it('accepts the server signature and parses dates', async () => {
    const event = await parseWebhook(body, signatureHeader(SECRET, now, body), opts);
    expect(event).toMatchObject({ id: 'e1', entity: { név: 'ü' } });
    expect(event.eventTime).toEqual(new Date('2026-01-02T03:04:05.000Z'));
    const bytes = new TextEncoder().encode(body);
    expect((await parseWebhook(bytes, signatureHeader(SECRET, now, body), opts)).id).toBe('e1');
    const request = new Request('http://x/hook', { method: 'POST', body, headers: { [SIGNATURE_HEADER]: signatureHeader(SECRET, now, body) } });
    expect((await parseWebhookRequest(request, opts)).id).toBe('e1');
    // Rotation: any of several secrets.
    expect(await code(verifyWebhookSignature(body, signatureHeader(SECRET, now, body), { ...opts, secret: ['old-secret-xxxxxxxxxxxxxxxx', SECRET] }))).toBe('accepted');
  });

  it('refuses tampering, wrong secrets, stale timestamps and malformed headers', async () => {
    const header = signatureHeader(SECRET, now, body);
    expect(await code(verifyWebhookSignature(body.replace('created', 'deleted'), header, opts))).toBe('SIGNATURE_MISMATCH');
    expect(await code(verifyWebhookSignature(body, header, { ...opts, secret: 'another-secret-of-some-length' }))).toBe('SIGNATURE_MISMATCH');
    expect(await code(verifyWebhookSignature(body, signatureHeader(SECRET, now - 301, body), opts))).toBe('TIMESTAMP_OUT_OF_TOLERANCE');
    expect(await code(verifyWebhookSignature(body, signatureHeader(SECRET, now - 300, body), opts))).toBe('accepted');
    expect(await code(verifyWebhookSignature(body, undefined, opts))).toBe('MISSING_SIGNATURE');
    expect(await code(verifyWebhookSignature(body, 'v1=abc', opts))).toBe('MALFORMED_SIGNATURE');
    expect(await code(verifyWebhookSignature(body, `t=${now},v1=${'0'.repeat(63)}`, opts))).toBe('MALFORMED_SIGNATURE');
    expect(await code(parseWebhook('not json', signatureHeader(SECRET, now, 'not json'), opts))).toBe('INVALID_PAYLOAD');
  });
});

describe('delivery policy', () => {
  it('backs off exponentially with jitter, capped', () => {
    expect([1, 2, 3, 4].map((n) => backoffDelayMs(n, 100, 10_000, () => 0))).toEqual([50, 100, 200, 400]);
    expect([1, 2, 3, 4].map((n) => backoffDelayMs(n, 100, 10_000, () => 1))).toEqual([100, 200, 400, 800]);
    expect(backoffDelayMs(60, 100, 10_000, () => 1)).toBe(10_000);
  });

  it('classifies answers and reads Retry-After', () => {
    expect([200, 204, 301, 400, 404, 408, 410, 429, 500, 503].map(classifyStatus)).toEqual([
      'SUCCEEDED', 'SUCCEEDED', 'FAILED', 'FAILED', 'FAILED', 'RETRY', 'FAILED', 'RETRY', 'RETRY', 'RETRY',
    ]);
    expect(retryAfterMs('7', 0)).toBe(7_000);
    expect(retryAfterMs(new Date(65_000).toUTCString(), 5_000)).toBe(60_000);
    expect(retryAfterMs('soon', 0)).toBeUndefined();
  });

  it('matches event type patterns', () => {
    expect(matchesPattern({ entityFqdn: 'wix.stores.*', slug: '*' }, 'wix.stores.catalog.v1.product', 'created')).toBe(true);
    expect(matchesPattern({ entityFqdn: 'wix.stores.*', slug: '*' }, 'wix.storesx.v1.thing', 'created')).toBe(false);
    expect(matchesPattern({ entityFqdn: 'wix.ecom.v1.order', slug: 'created' }, 'wix.ecom.v1.order', 'canceled')).toBe(false);
    expect(matchesPattern({ entityFqdn: '*', slug: 'deleted' }, 'a.b', 'deleted')).toBe(true);
  });
});
