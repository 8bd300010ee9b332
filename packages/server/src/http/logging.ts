import os from 'node:os';
import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Log lines are encoded into a chunk of this many bytes as they come and the chunk is written in one
 * call when full: a synchronous write per request line was one of the largest costs of a cheap read
 * under load. It is also the file writer's largest single write (sonic-boom's `maxWrite` default).
 */
export const LOG_BUFFER_BYTES = 16 * 1024;
/** A quiet server still writes what it holds within this long, so a tail of the log stays current. */
export const LOG_FLUSH_INTERVAL_MS = 1000;

/** The file writer under a batched destination: sonic-boom, synchronous, in its buffer mode. */
interface ChunkWriter { write(chunk: Buffer): boolean }

/**
 * Encodes each line into the current chunk (off the JavaScript heap) and writes the chunk in one
 * synchronous call when it is full. Why encode at once: lines held as text until a batch was full
 * were copied into V8's old generation by young collections, and the asynchronous writer kept each
 * batch's text alive again until written; encoded at once, a line's text dies young (at info, the
 * log cost a product get 8-9 us and the process 20 MB, now about 4 us and nothing that showed,
 * docs/performance-log.md). Why synchronous: one write(2) of 16 KiB per ~70 request lines costs
 * less than handing it to libuv's thread pool, and lines reach the file in order even when the
 * process exits through process.exit() (pino's own default is synchronous too). Why not sonic-boom's
 * `minLength`: it appends each line to one growing string and measures its byte length on every write.
 */
class BatchedDestination {
  private chunk = Buffer.allocUnsafe(LOG_BUFFER_BYTES);
  private used = 0;
  constructor(private readonly file: ChunkWriter) {}

  write(line: string): void {
    // A UTF-16 unit takes at most three bytes: a line that might not fit starts a new chunk, one
    // that might not fit a whole chunk goes alone.
    const most = line.length * 3;
    if (this.used + most > LOG_BUFFER_BYTES) this.flush();
    if (most > LOG_BUFFER_BYTES) this.file.write(Buffer.from(line, 'utf8'));
    else this.used += this.chunk.write(line, this.used, 'utf8');
  }

  /** Writes what the chunk holds, now. */
  flush(): void {
    if (this.used === 0) return;
    this.file.write(this.chunk.subarray(0, this.used));
    // A fresh chunk: a writer that failed keeps the bytes it could not write.
    this.chunk = Buffer.allocUnsafe(LOG_BUFFER_BYTES);
    this.used = 0;
  }
}

/** Every buffered destination of this process; flushed together by one timer and one exit hook. */
const open = new Set<BatchedDestination>();
let timer: NodeJS.Timeout | undefined;

function flushAllSync(): void {
  for (const dest of open) {
    try {
      dest.flush();
    } catch {
      // A destination whose file is already closed (a test's) has nowhere to write.
    }
  }
}

function track(dest: BatchedDestination): void {
  if (open.size === 0) {
    timer = setInterval(flushAllSync, LOG_FLUSH_INTERVAL_MS);
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
 * The process logger: JSON lines on stdout, written in chunks of LOG_BUFFER_BYTES, within
 * LOG_FLUSH_INTERVAL_MS and on exit, so no line is lost (the lines of one chunk are dropped only if
 * the process is killed with SIGKILL). `silent` opens
 * no destination at all (tests create many servers).
 */
export function createLogger(level: string, fd = 1): Logger {
  // Never log credentials: request logs carry method, path, status and duration only.
  if (level === 'silent') return pino({ level, redact: REDACT });
  // sonic-boom's types declare only write(string); in its buffer mode it takes Buffers (and only those).
  const dest = new BatchedDestination(pino.destination({ dest: fd, sync: true, contentMode: 'buffer' }) as unknown as ChunkWriter);
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
