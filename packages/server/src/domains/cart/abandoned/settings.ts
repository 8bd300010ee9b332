import { envInt } from '../../../env.js';

/** Tunables of abandoned-checkout tracking (docs/cart-aftercare.md lists the env names). */
export interface AbandonedCheckoutSettings {
  /** A checkout untouched this long (and not completed) becomes ABANDONED. */
  abandonAfterMs: number;
  /** How often the periodic `cart.abandon-checkouts` job looks for idle checkouts. */
  scanEveryMs: number;
}

/** One hour idle, the usual definition of an abandoned checkout. */
export const DEFAULT_ABANDON_AFTER_MS = 3_600_000;
/** Five minutes between scans: an abandoned checkout shows up at most this late. */
export const DEFAULT_ABANDON_SCAN_EVERY_MS = 300_000;
/** Keeps a misconfiguration from turning the scan into a busy loop. */
const MIN_SCAN_EVERY_MS = 50;

export function loadAbandonedCheckoutSettings(env: NodeJS.ProcessEnv = process.env): AbandonedCheckoutSettings {
  return {
    abandonAfterMs: envInt(env, 'ABANDONED_CHECKOUT_AFTER_MS', DEFAULT_ABANDON_AFTER_MS),
    scanEveryMs: Math.max(MIN_SCAN_EVERY_MS, envInt(env, 'ABANDONED_CHECKOUT_SCAN_MS', DEFAULT_ABANDON_SCAN_EVERY_MS)),
  };
}
