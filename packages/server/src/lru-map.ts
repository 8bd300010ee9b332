/**
 * A map with a bound: every per-process cache of the server keeps its entries in one, so none can
 * grow with what callers send. Entries are dropped least recently used first until the entries' total
 * weight is within `max`. The weight is 1 per entry unless `weigh` says otherwise (an encoded page
 * weighs its characters); an entry heavier than `max` by itself is not kept at all.
 *
 * A JavaScript Map iterates in insertion order, so the first key is the one to drop, and a use moves
 * an entry to the end by deleting and setting it again. That move is not free: each one leaves a hole
 * that makes V8 rebuild the whole table from time to time, and hot caches are read dozens of times
 * per request (a 20-line cart reads two of them per line), which made an estimate of such a cart
 * measurably slower. So a read moves only an entry in the older half (half the map's size of insertions
 * ago or more): an entry read at least that often is never dropped, and most reads move nothing.
 */
export class LruMap<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number; stamp: number }>();
  private total = 0;
  /** Insertions so far: an entry's stamp is this count when it was last put at the end. */
  private clock = 0;

  constructor(
    readonly max: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  /** The value for `key`; a read counts as a use. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (this.clock - entry.stamp >= this.entries.size / 2) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      entry.stamp = this.clock;
    }
    return entry.value;
  }

  /** Keeps `value` under `key` as the most recently used entry, dropping the least recently used ones beyond the bound. */
  set(key: K, value: V): void {
    this.delete(key);
    const weight = this.weigh(value);
    if (weight > this.max) return;
    while (this.total + weight > this.max) this.delete(this.entries.keys().next().value as K);
    this.entries.set(key, { value, weight, stamp: ++this.clock });
    this.total += weight;
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.total -= entry.weight;
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

/**
 * One `LruMap` per owner object, made on first use. The server's per-process caches are kept per
 * database handle: a test process serves several databases, and what one holds says nothing of another.
 */
export class LruMaps<K, V> {
  private readonly maps = new WeakMap<object, LruMap<K, V>>();

  constructor(private readonly make: () => LruMap<K, V>) {}

  of(owner: object): LruMap<K, V> {
    let map = this.maps.get(owner);
    if (!map) this.maps.set(owner, (map = this.make()));
    return map;
  }
}
