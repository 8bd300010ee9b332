import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createLogger, flushLogs, LOG_BUFFER_BYTES, LOG_FLUSH_INTERVAL_MS, requestLineWriter } from './logging.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const tsx = path.resolve(here, '../../../../node_modules/.bin/tsx');

/** Runs `code` (TypeScript, importing ./logging.js) in its own Node process; resolves with its stdout. */
function runChild(code: string): Promise<{ stdout: string; status: number | null }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-log-'));
  const file = path.join(dir, 'child.ts');
  fs.writeFileSync(file, code.replaceAll('LOGGING', JSON.stringify(path.join(here, 'logging.ts'))));
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, [file], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
    child.once('error', reject);
    child.once('close', (status) => { fs.rmSync(dir, { recursive: true, force: true }); resolve({ stdout, status }); });
  });
}

const linesOf = (stdout: string) => stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { msg: string; n?: number });

describe('buffered request log', () => {
  it('writes every line of a burst once the process exits, in order, even through process.exit()', async () => {
    const count = 5000;
    const { stdout, status } = await runChild(`
      import { createLogger } from LOGGING;
      const log = createLogger('info');
      for (let n = 0; n < ${count}; n++) log.info({ n }, 'request');
      process.exit(3);
    `);
    expect(status).toBe(3);
    const lines = linesOf(stdout);
    expect(lines.map((l) => l.n)).toEqual(Array.from({ length: count }, (_, n) => n));
  });

  it('writes a lone line on a quiet process within the flush interval, without waiting for the buffer to fill', async () => {
    const { stdout } = await runChild(`
      import { createLogger } from LOGGING;
      const log = createLogger('info');
      log.info('only line');
      const started = Date.now();
      // Keep the process alive (and its exit hook unused) until the timer has written the line.
      setTimeout(() => { process.stdout.write(JSON.stringify({ msg: 'marker', n: Date.now() - started }) + '\\n'); process.kill(process.pid, 'SIGKILL'); }, ${LOG_FLUSH_INTERVAL_MS * 2});
    `);
    const lines = linesOf(stdout);
    expect(lines.map((l) => l.msg)).toEqual(['only line', 'marker']);
  });

  it('keeps short lines in memory below the buffer size and writes them on flushLogs()', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-log-')), 'out.log');
    const fd = fs.openSync(file, 'w');
    const log = createLogger('info', fd);
    log.info({ n: 1 }, 'request');
    expect(fs.readFileSync(file, 'utf8')).toBe('');
    expect(LOG_BUFFER_BYTES).toBeGreaterThan(200);
    flushLogs();
    expect(linesOf(fs.readFileSync(file, 'utf8')).map((l) => l.n)).toEqual([1]);
    fs.closeSync(fd);
  });

  it('writes full chunks as they fill, in order, with multi-byte text and a line larger than a chunk intact', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-log-')), 'out.log');
    const fd = fs.openSync(file, 'w');
    const log = createLogger('info', fd);
    const text = '\u00e9\u4e2d\ud83d\ude00'.repeat(20);
    const lines = Math.ceil((3 * LOG_BUFFER_BYTES) / 200);
    for (let n = 0; n < lines; n++) log.info({ n, text }, 'request');
    log.info({ n: lines, text: 'x'.repeat(LOG_BUFFER_BYTES * 2) }, 'large');
    // Without a flush, every chunk that filled is already in the file, whole lines only.
    const written = linesOf(fs.readFileSync(file, 'utf8'));
    expect(written.length).toBeGreaterThan(lines / 2);
    expect(written.length).toBeLessThanOrEqual(lines + 1);
    flushLogs();
    const all = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { n: number; text: string });
    expect(all.map((l) => l.n)).toEqual(Array.from({ length: lines + 1 }, (_, n) => n));
    expect(all.slice(0, -1).every((l) => l.text === text)).toBe(true);
    expect(all.at(-1)!.text).toHaveLength(LOG_BUFFER_BYTES * 2);
    fs.closeSync(fd);
  });

  it('request lines go to the same buffer, in order with the other lines, in pino\'s shape with the same base fields; other lines stay redacted', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-log-')), 'out.log');
    const fd = fs.openSync(file, 'w');
    const log = createLogger('info', fd).child({ worker: 2 });
    const writeRequestLine = requestLineWriter(log);
    const before = Date.now();
    log.info({ n: 1, user: { password: 'hunter2' } }, 'app');
    writeRequestLine({ reqId: 'r-1', method: 'GET', path: '/p/"quoted"/\u00e9', status: 404, ms: 1.5 });
    log.info({ n: 3 }, 'app');
    flushLogs();
    const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.n, l.msg])).toEqual([[1, 'app'], [undefined, 'request'], [3, 'app']]);
    expect(lines[0]!.user).toEqual({ password: '[Redacted]' });
    const { time, ...rest } = lines[1]!;
    expect(rest).toEqual({ level: 30, pid: process.pid, hostname: os.hostname(), worker: 2, reqId: 'r-1', method: 'GET', path: '/p/"quoted"/\u00e9', status: 404, ms: 1.5, msg: 'request' });
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(Date.now());
    expect(Object.keys(lines[1]!)).toEqual(Object.keys(lines[2]!).filter((k) => k !== 'n').slice(0, 5).concat(['reqId', 'method', 'path', 'status', 'ms', 'msg']));
    fs.closeSync(fd);
  });

  it('writes no request line when the logger is above info', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-log-')), 'out.log');
    const fd = fs.openSync(file, 'w');
    const log = createLogger('warn', fd);
    requestLineWriter(log)({ reqId: 'r-1', method: 'GET', path: '/p', status: 200, ms: 1 });
    log.warn('kept');
    flushLogs();
    expect(linesOf(fs.readFileSync(file, 'utf8')).map((l) => l.msg)).toEqual(['kept']);
    fs.closeSync(fd);
  });

  it('a silent logger writes nothing', () => {
    const log = createLogger('silent');
    expect(log.level).toBe('silent');
    expect(log.isLevelEnabled('info')).toBe(false);
  });
});
