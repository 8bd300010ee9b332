import { outsideQueryCount } from './query-counter.js';
import { outsideReadScope } from './read-routing.js';

/**
 * Runs `fn` detached from the request that started it: its statements are not counted against the
 * request's query budget and do not touch the request's replica scope. For background work a request
 * kicks off and does not wait for (the local event fan-out).
 */
export function detachedFromRequest<T>(fn: () => T): T {
  return outsideQueryCount(() => outsideReadScope(fn));
}
