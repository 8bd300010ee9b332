import { envInt } from '../../../env.js';

/** Tunables of back-in-stock notifications (docs/cart-aftercare.md lists the env names). */
export interface BackInStockSettings {
  /** How often the periodic `back-in-stock.settle` job reads the outcome of queued notification mails. */
  settleEveryMs: number;
}

/** Ten seconds: a request shows NOTIFICATION_SENT at most this long after its mail went out. */
export const DEFAULT_SETTLE_EVERY_MS = 10_000;
/** Keeps a misconfiguration from turning the job into a busy loop. */
const MIN_SETTLE_EVERY_MS = 50;

export function loadBackInStockSettings(env: NodeJS.ProcessEnv = process.env): BackInStockSettings {
  return { settleEveryMs: Math.max(MIN_SETTLE_EVERY_MS, envInt(env, 'BACK_IN_STOCK_SETTLE_MS', DEFAULT_SETTLE_EVERY_MS)) };
}
