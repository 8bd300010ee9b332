/**
 * A map with a bound: every per-process cache of the server keeps its entries in one, so none can
 * grow with what callers send. Entries are dropped least recently used first (a read or a write makes
 * an entry the most recent) until the entries' total weight is within `max`. The weight is 1 per entry
 * unless `weigh` says otherwise (an encoded page weighs its characters); an entry heavier than `max` by
 * itself is not kept at all.
 *
 * A JavaScript Map iterates in insertion order, so deleting and setting again moves an entry to the
 * end and the first key is always the least recently used one.
 */
export class LruMap<K, V> {
  private readonly entries = new Map<K, V>();
  private total = 0;

  constructor(
    readonly max: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  /** The value for `key`, which becomes the most recently used. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** Keeps `value` under `key` as the most recently used entry, dropping the least recently used ones beyond the bound. */
  set(key: K, value: V): void {
    this.delete(key);
    const weight = this.weigh(value);
    if (weight > this.max) return;
    while (this.total + weight > this.max) this.delete(this.entries.keys().next().value as K);
    this.entries.set(key, value);
    this.total += weight;
  }

  delete(key: K): void {
    if (!this.entries.has(key)) return;
    this.total -= this.weigh(this.entries.get(key) as V);
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entries' total weight (their count when nothing is weighed). */
  get weight(): number {
    return this.total;
  }
}
