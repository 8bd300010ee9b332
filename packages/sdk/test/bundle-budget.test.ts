import { describe, expect, it } from 'vitest';
import { bundle, gzippedSize, STOREFRONT_SUBSET_MAX } from '../../../bench/sdk-size.js';

/**
 * The storefront subset's budget, held as the query budgets are: a bundle that grows past it, or that
 * pulls in a flow a product or cart page never calls, fails here instead of in a later measurement.
 * Sizes are deterministic for a given esbuild and source, so this is an exact bound, not a timing.
 */

/** Text only the member sign-in flows carry (the captcha challenge path, login states); minification keeps strings. */
const MEMBER_FLOW_MARKERS = ['/_api/iam/captcha/v1/challenge', 'USER_CAPTCHA_REQUIRED', 'MFA_REQUIRED'];

const text = (code: Uint8Array) => Buffer.from(code).toString('utf8');

describe('SDK storefront subset', () => {
  it('stays within its gzip budget', async () => {
    const size = gzippedSize(await bundle('@vitrine/sdk storefront subset'));
    expect(size).toBeLessThanOrEqual(STOREFRONT_SUBSET_MAX);
  });

  it('leaves the member sign-in flows out, which the full OAuth strategy brings in', async () => {
    const subset = text(await bundle('@vitrine/sdk storefront subset'));
    const full = text(await bundle('@vitrine/sdk + stores/products'));
    for (const marker of MEMBER_FLOW_MARKERS) {
      expect(full, marker).toContain(marker);
      expect(subset, marker).not.toContain(marker);
    }
  });
});
