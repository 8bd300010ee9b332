import { LruMap, LruMaps } from '../lru-map.js';
import { commitWatchOf, type Executor } from './database.js';

/**
 * Answers of reads kept while nothing is committed to the database (storage/commit-watch.ts): on
 * SQLite, a read's answer for a key is read again only when any connection of any process committed
 * since it was last read; on PostgreSQL and inside a transaction every call reads. The per-request
 * statements of hot paths that only check committed state (the catalog's listing version, a cart's
 * head, an API key, a member token's family) cost a read of the WAL-index header instead while the
 * store is not written to.
 *
 * Only for reads whose answer follows from the committed rows and the key alone (no clock, no
 * caller beyond the key). The answer is shared by every call that gets it: never change it.
 */
export class VouchedReads<T> {
  private readonly kept: LruMaps<string, { mark: Buffer; answer: T }>;

  /** `max`: keys kept per database handle, least recently used dropped first. */
  constructor(max: number) {
    this.kept = new LruMaps(() => new LruMap(max));
  }

  async read(db: Executor, key: string, read: () => Promise<T>): Promise<T> {
    const watch = commitWatchOf(db);
    if (watch === undefined) return read();
    const kept = this.kept.of(db).get(key);
    if (kept !== undefined && watch.unchangedSince(kept.mark)) return kept.answer;
    // Marked before the read: a commit between the two only makes the next call read again.
    const mark = watch.mark();
    const answer = await read();
    if (mark !== undefined) this.kept.of(db).set(key, { mark, answer });
    return answer;
  }
}
