import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { serviceContext } from './member-tokens.js';
import { freshIp } from './identity-helpers.js';
import { msUntilUnder, RATE_LIMITS, RATE_WINDOW_SECONDS, throttle } from '../src/domains/identity/rate-limit.js';

/**
 * Throttling holds over any RATE_WINDOW_SECONDS, across the edge of its fixed windows too: the clock
 * (Date only; the database is real) is set on either side of an edge.
 */
let t: TestServer;
beforeAll(async () => { t = await startTestServer(); });
afterAll(() => t?.close());
afterEach(() => { vi.useRealTimers(); });

const W = RATE_WINDOW_SECONDS * 1000;
const LIMIT = RATE_LIMITS['send-email'].perIdentifierIp;
/** A window edge well in the future of the real clock, so no real bucket shares it. */
const EDGE = (Math.floor(Date.now() / W) + 10) * W;

async function attempt(ip: string, at: number): Promise<number | 'ok'> {
  vi.setSystemTime(at);
  try {
    await throttle({ ...serviceContext(t), ip }, t.site.id, 'send-email', 'edge@example.com');
    return 'ok';
  } catch (error) {
    return (error as { status: number }).status;
  }
}

describe('sliding throttle windows', () => {
  it('counts attempts just before a window edge against attempts just after it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const ip = freshIp();
    for (let i = 0; i < LIMIT; i++) expect(await attempt(ip, EDGE - 1000)).toBe('ok');
    // A fixed window would start again at 0 here and let LIMIT more through.
    expect(await attempt(ip, EDGE + 1000)).toBe(429);
  });

  it('lets attempts through again as the earlier ones leave the sliding window', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const ip = freshIp();
    for (let i = 0; i < LIMIT; i++) expect(await attempt(ip, EDGE + W - 1000)).toBe('ok');
    // Half a window after the edge the earlier window weighs half: LIMIT / 2 of them count.
    expect(await attempt(ip, EDGE + W + W / 2)).toBe('ok');
    // Two windows later nothing of them is left.
    for (let i = 0; i < LIMIT; i++) expect(await attempt(ip, EDGE + 3 * W + 1000)).toBe('ok');
  });

  it('answers how long until the count is within the limit, never more than a window', () => {
    expect(msUntilUnder(3, 3, 0, W / 2, W)).toBe(0);
    expect(msUntilUnder(3, 4, 0, W / 2, W)).toBe(W / 2 + W / 4);
    expect(msUntilUnder(3, 10, 0, W - 1, W)).toBe(W);
    // 1 now and 4 before, a quarter window left: 1 + 4 x 1/4 = 2 is within 3.
    expect(msUntilUnder(3, 1, 4, W / 4, W)).toBe(0);
    // 2 now and 4 before, half a window left: 2 + 2 = 4; the earlier four weigh 1 after a quarter window.
    expect(msUntilUnder(3, 2, 4, W / 2, W)).toBe(W / 4);
  });
});
