import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createLogger, flushLogs, LOG_BUFFER_BYTES, LOG_FLUSH_INTERVAL_MS, requestLineLogger } from './logging.js';

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

  it('request lines go to the same buffer, in order with the other lines, with the same base fields; other lines stay redacted', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-log-')), 'out.log');
    const fd = fs.openSync(file, 'w');
    const log = createLogger('info', fd);
    const requests = requestLineLogger(log);
    log.info({ n: 1, user: { password: 'hunter2' } }, 'app');
    requests.info({ n: 2, method: 'GET', path: '/p' }, 'request');
    requests.debug({ n: 3 }, 'below the level');
    flushLogs();
    const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.n, l.msg])).toEqual([[1, 'app'], [2, 'request']]);
    expect(lines[0]!.user).toEqual({ password: '[Redacted]' });
    expect([lines[1]!.pid, lines[1]!.hostname, lines[1]!.level]).toEqual([process.pid, os.hostname(), 30]);
    fs.closeSync(fd);
  });

  it('a silent logger writes nothing', () => {
    const log = createLogger('silent');
    expect(log.level).toBe('silent');
    expect(log.isLevelEnabled('info')).toBe(false);
  });
});
