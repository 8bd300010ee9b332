import os from 'node:os';
import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Log lines are gathered in memory up to this many bytes and written in one call: a synchronous
 * write per request line was one of the largest costs of a cheap read under load. Must stay below
 * pino's largest single write (16 KiB).
 */
export const LOG_BUFFER_BYTES = 8 * 1024;
/** A quiet server still writes what it holds within this long, so a tail of the log stays current. */
export const LOG_FLUSH_INTERVAL_MS = 1000;

/** What a buffered destination must offer: pino's own (sonic-boom) has both. */
interface Flushable extends DestinationStream { flush(): void; flushSync(): void }

/**
 * Gathers lines in an array and hands them to the file destination joined, about LOG_BUFFER_BYTES at
 * a time. Why not sonic-boom's own `minLength` alone: it appends each line to one growing string and
 * measures that string's byte length on every write, which flattens it; at 8 KiB that was about 7 KB
 * of garbage per request line and a few percent of a cheap read's CPU (docs/performance-log.md). Handed
 * whole batches, it does that once per batch.
 */
class BatchedDestination implements Flushable {
  private lines: string[] = [];
  /** UTF-16 units held; equal to bytes for the ASCII lines that make up nearly all of a log. */
  private held = 0;
  /** `file` holds what it is given below LOG_BUFFER_BYTES until flushed, and writes a full batch at once. */
  constructor(private readonly file: Flushable) {}

  write(line: string): void {
    this.lines.push(line);
    this.held += line.length;
    if (this.held >= LOG_BUFFER_BYTES) this.handOver();
  }

  /** Starts writing everything held (asynchronously). */
  flush(): void {
    this.handOver();
    this.file.flush();
  }

  flushSync(): void {
    this.handOver();
    this.file.flushSync();
  }

  private handOver(): void {
    if (this.lines.length === 0) return;
    const text = this.lines.length === 1 ? this.lines[0]! : this.lines.join('');
    this.lines = [];
    this.held = 0;
    this.file.write(text);
  }
}

/** Every buffered destination of this process; flushed together by one timer and one exit hook. */
const open = new Set<Flushable>();
let timer: NodeJS.Timeout | undefined;

function flushAllSync(): void {
  for (const dest of open) {
    try {
      dest.flushSync();
    } catch {
      // A destination still opening (or already closed) holds nothing it could write now.
    }
  }
}

function track(dest: Flushable): void {
  if (open.size === 0) {
    timer = setInterval(() => { for (const d of open) d.flush(); }, LOG_FLUSH_INTERVAL_MS);
    timer.unref();
    // `exit` runs for process.exit() and for a drained event loop alike; only synchronous work counts there.
    process.once('exit', flushAllSync);
  }
  open.add(dest);
}

/** Writes every buffered line now (before a deliberate exit, or in a test that reads the output). */
export function flushLogs(): void {
  flushAllSync();
}

const REDACT = ['req.headers.authorization', '*.password', '*.apiKey', '*.refreshToken'];

/**
 * The process logger: JSON lines on stdout, written asynchronously in batches and flushed on exit,
 * so no line is lost (a line is dropped only if the process is killed with SIGKILL). `silent` opens
 * no destination at all (tests create many servers).
 */
export function createLogger(level: string, fd = 1): Logger {
  // Never log credentials: request logs carry method, path, status and duration only.
  if (level === 'silent') return pino({ level, redact: REDACT });
  const dest = new BatchedDestination(pino.destination({ dest: fd, sync: false, minLength: LOG_BUFFER_BYTES }) as Flushable);
  track(dest);
  return pino({ level, redact: REDACT }, dest);
}

/** What the request-logging middleware knows of a request once it is answered. */
export interface RequestLine {
  reqId: string;
  method: string;
  path: string;
  status: number;
  ms: number;
}

/**
 * Writes request lines: the same destination, level and base fields as `log` (pino's line shape:
 * level, time, pid, hostname, the logger's bindings, then the request's fields and `msg`), built
 * as one string instead of through pino. A request line holds only what the app itself sets, so
 * there is nothing to redact or serialize generically; building it directly costs a fraction of
 * pino's generic path, paid on every request. Writes nothing if `log` is above `info` when the
 * writer is made (once, with the app).
 */
export function requestLineWriter(log: Logger): (line: RequestLine) => void {
  if (!log.isLevelEnabled('info')) return () => undefined;
  // pino keeps its destination under this exported symbol; it has no public getter.
  const stream = (log as unknown as Partial<Record<symbol, DestinationStream>>)[pino.symbols.streamSym];
  if (!stream) throw new Error('requestLineWriter: the logger has no destination');
  const base = { pid: process.pid, hostname: os.hostname(), ...log.bindings() };
  const head = `{"level":${pino.levels.values.info},"time":`;
  const fields = `,${JSON.stringify(base).slice(1, -1)},"reqId":`;
  // Every text field through JSON.stringify: a path may hold quotes or any other text.
  return (r) => {
    stream.write(`${head}${Date.now()}${fields}${JSON.stringify(r.reqId)},"method":${JSON.stringify(r.method)},"path":${JSON.stringify(r.path)},"status":${r.status},"ms":${r.ms},"msg":"request"}\n`);
  };
}
