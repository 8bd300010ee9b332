import fs from 'node:fs';

/** Bytes of the first copy of the WAL-index header, at the start of a WAL database's `-shm` file. */
export const WAL_INDEX_HEADER_BYTES = 48;

/**
 * Tells whether anything was committed to a SQLite database in WAL mode, by any connection of any
 * process, since a moment marked before: one read(2) of the WAL-index header instead of a statement
 * (two lock calls and a read transaction). SQLite's WAL format documents that header: every commit
 * raises its change counter and frame count, and a WAL started over gets new salts, so the header is
 * byte-for-byte the same only while nothing was committed. Writers publish a commit by writing this
 * copy last, and readers take a snapshot only when both copies agree, so a header that still reads as
 * marked means no reader can see a newer state yet. The `-shm` file is shared memory SQLite maps; on
 * Linux a read of it sees every connection's writes at once (one page cache).
 *
 * Use: take `mark()` BEFORE reading the state a mark should vouch for; later, `unchangedSince(mark)`
 * true means that state is still current. False answers (a failed read included) only cost a read.
 */
export class CommitWatch {
  private readonly scratch = Buffer.alloc(WAL_INDEX_HEADER_BYTES);

  private constructor(private readonly fd: number) {}

  /** A watch over `databaseFile` (already open in WAL mode, so its `-shm` exists), or undefined when it cannot be read. */
  static open(databaseFile: string): CommitWatch | undefined {
    try {
      return new CommitWatch(fs.openSync(`${databaseFile}-shm`, 'r'));
    } catch {
      return undefined;
    }
  }

  /** A mark of what is committed now, or undefined when the header cannot be read. */
  mark(): Buffer | undefined {
    // Not from Buffer's shared pool: a mark is kept, and a pooled slice would keep its whole slab.
    const mark = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
    return this.readInto(mark) ? mark : undefined;
  }

  /** True when nothing was committed since `mark` was taken. */
  unchangedSince(mark: Buffer): boolean {
    return this.readInto(this.scratch) && this.scratch.equals(mark);
  }

  close(): void {
    fs.closeSync(this.fd);
  }

  private readInto(target: Buffer): boolean {
    try {
      return fs.readSync(this.fd, target, 0, WAL_INDEX_HEADER_BYTES, 0) === WAL_INDEX_HEADER_BYTES;
    } catch {
      return false;
    }
  }
}
