/**
 * Freezes a value all the way down. Objects kept per process and handed to many requests are frozen,
 * so a caller that changed one would fail loudly (ES modules run in strict mode) instead of changing
 * the next caller's answer.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
