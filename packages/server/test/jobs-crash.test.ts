import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from './harness.js';
import { waitFor } from './events-support.js';
import { startMailbox } from './mailbox.js';
import { DATA_JOB_BATCH_SIZE } from '../src/domains/data/bulk.js';
import { freshDatabase, startServerProcess, stopServerProcess, type ServerProcess } from './child-server.js';

/**
 * The job system across a crash: the real CLI `start` as a child process, SIGKILLed while a by-filter
 * data job is half done and a mail waits for an unreachable SMTP server; a restarted process finishes
 * the job with exact counts (every item patched once) and delivers the mail exactly once.
 */
const PG = process.env.DATABASE_URL || '';
/** Items of the job: 6 batches (PostgreSQL on a busy machine takes seconds per batch). */
const ITEMS = 6 * DATA_JOB_BATCH_SIZE;
const INSERT_CHUNK = 1_000;
/** Short leases and retries so the test does not wait long for a dead process's job. */
const FAST_JOBS_ENV = {
  JOBS_LEASE_MS: '1500', JOBS_POLL_MS: '50', WEBHOOK_BACKOFF_BASE_MS: '100', WEBHOOK_BACKOFF_MAX_MS: '1000', WEBHOOK_TIMEOUT_MS: '1000', EVENTS_POLL_MS: '20',
};

const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function startProcess(env: Record<string, string>): Promise<ServerProcess> {
  const proc = await startServerProcess({ ...FAST_JOBS_ENV, ...env });
  cleanups.push(() => stopServerProcess(proc, 'SIGKILL'));
  return proc;
}

/** `call`, once more when a pooled keep-alive connection was closed by the server just as it was reused. */
async function callOnce(...args: Parameters<typeof call>): ReturnType<typeof call> {
  try {
    return await call(...args);
  } catch (err) {
    if (!/ECONNRESET|other side closed/.test(String((err as { cause?: unknown }).cause ?? err))) throw err;
    return call(...args);
  }
}

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe(`jobs across SIGKILL (${PG ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('finishes a half-done by-filter job with exact counts and sends a waiting mail once', async () => {
    const fresh = freshDatabase('vitrine-jobs-crash-');
    cleanups.push(() => fresh.drop());
    const read = fresh.read;
    const smtpPort = await freePort(); // nothing listens there yet: the SMTP server is unreachable
    const env = { ...fresh.env, SMTP_URL: `smtp://127.0.0.1:${smtpPort}` };

    let proc = await startProcess(env);
    const key = await fresh.ownerKey('jobs-crash');
    const owner = { auth: key.apiKey, siteId: key.siteId };
    const data = async (url: string, p: string, body: unknown) => {
      const res = await callOnce(url, `/wix-data/v2${p}`, { ...owner, body });
      if (res.status !== 200) throw new Error(`${p} -> ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as { jobId: string; totalCount: number };
    };
    await data(proc.url, '/collections', { collection: { id: 'crash', displayName: 'crash', fields: [], permissions: { read: 'ANYONE', insert: 'ANYONE', update: 'ANYONE', remove: 'ANYONE' } } });
    for (let i = 0; i < ITEMS; i += INSERT_CHUNK) {
      const dataItems = Array.from({ length: INSERT_CHUNK }, (_, j) => ({ id: `it-${String(i + j).padStart(6, '0')}`, data: { n: i + j, hits: 0 } }));
      await data(proc.url, '/bulk/items/insert', { dataCollectionId: 'crash', dataItems });
    }

    // A member: its welcome mail is queued, and fails while the SMTP server is unreachable.
    const member = await callOnce(proc.url, '/members/v1/members', { ...owner, body: { member: { loginEmail: 'crash@example.com' } } });
    expect(member.status).toBe(200);
    const mailAttempts = () => read(async (db) => (await db.selectFrom('notification_mails').select(['status', 'attempts', 'last_error']).where('to_address', '=', 'crash@example.com').execute()));
    await waitFor(async () => (await mailAttempts()).some((m) => m.attempts >= 1 && m.status === 'PENDING'), 20_000, 'a failed mail attempt');

    const { jobId } = await data(proc.url, '/bulk/items/async-patch-by-filter', {
      dataCollectionId: 'crash', filter: {}, fieldModifications: [{ action: 'INCREMENT_FIELD', fieldPath: 'hits', incrementFieldOptions: { value: 1 } }],
    });
    const status = async (url: string) => (await callOnce(url, `/wix-data/v2/async-jobs/${jobId}/status`, owner)).body as { status: string; successCount: number };
    // Kill the process half-way: watch the job's count (reads never wait for the job's writes, so
    // the watcher cannot be starved the way a writer waiting for the lock can) and SIGKILL once at
    // least one batch and at most all but two are done. A batch committing between that look and the
    // kill still leaves one undone.
    await read(async (db) => {
      for (const started = Date.now(); ; await new Promise((r) => setTimeout(r, 2))) {
        if (Date.now() - started > 120_000) throw new Error('never saw the job half done');
        const row = await db.selectFrom('data_jobs').select(['status', 'success_count']).where('id', '=', jobId).executeTakeFirstOrThrow();
        const done = Number(row.success_count);
        if (row.status === 'SUCCEEDED') throw new Error('the job finished before the watcher saw it half done');
        if (done > 0 && done <= ITEMS - 2 * DATA_JOB_BATCH_SIZE) break;
      }
      proc.child.kill('SIGKILL');
      await proc.exited;
    });
    const atKill = await read(async (db) => db.selectFrom('data_jobs').select(['status', 'success_count']).where('id', '=', jobId).executeTakeFirstOrThrow());
    expect(atKill.status).toBe('PROCESSING');
    expect(Number(atKill.success_count)).toBeGreaterThan(0);
    expect(Number(atKill.success_count)).toBeLessThan(ITEMS);
    expect((await mailAttempts())[0]!.status).toBe('PENDING');

    const mail = await startMailbox({ port: smtpPort });
    cleanups.push(() => mail.close());
    proc = await startProcess(env);
    await waitFor(async () => (await status(proc.url)).status === 'SUCCEEDED', 150_000, 'the job to finish after the restart');
    expect(await status(proc.url)).toEqual({ status: 'SUCCEEDED', successCount: ITEMS });
    const counted = async (filter: unknown) => (await data(proc.url, '/items/count', { dataCollectionId: 'crash', filter })).totalCount as number;
    // Every item was patched exactly once: none missed, none twice (the batch cut by the kill rolled back).
    expect(await counted({ hits: 1 })).toBe(ITEMS);
    expect(await counted({})).toBe(ITEMS);

    await waitFor(() => mail.messages.length >= 1, 30_000, 'the mail after the restart');
    await waitFor(async () => (await mailAttempts())[0]!.status === 'SENT', 10_000, 'the mail to be marked sent');
    // Give a duplicate every chance to show up.
    await new Promise((r) => setTimeout(r, 1_500));
    
    expect(mail.messages.map((m) => m.to)).toEqual([['crash@example.com']]);
    const job = await read(async (db) => db.selectFrom('jobs').select(['status', 'attempts']).where('kind', '=', 'data.bulk-by-filter').execute());
    // Claimed by the killed process, then again once its lease expired. The test's 1.5 s lease can also
    // lapse under a saturated CPU while the new process holds it (a third claim); the exact item counts
    // above are what prove each item was patched once.
    expect(job).toHaveLength(1);
    expect(job[0]!.status).toBe('SUCCEEDED');
    expect(job[0]!.attempts).toBeGreaterThanOrEqual(2);
    proc.child.kill('SIGTERM');
    await proc.exited;
  }, 400_000);
});
