import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type TestServer } from './harness.js';
import { eventsOf, ownerCreateMember, serviceContext } from './member-tokens.js';
import { createServer, createLogger } from '../src/server.js';
import { memberBulkJob } from '../src/domains/members/jobs.js';
import { claimedByADeadProcess } from './jobs-support.js';
import { setMemberRoles, whereFor } from '../src/domains/members/service.js';
import { finishJobItem, insertJobWithItems } from '../src/domains/members/store.js';
import { parseFilter } from '../src/storage/filter.js';

/** By-filter bulk jobs: run after commit by the in-process worker, progress via the job route, resumable. */
let t: TestServer;
const M = '/members/v1/members';
const owner = () => asOwner(t);

beforeAll(async () => { t = await startTestServer(); });
afterAll(() => t?.close());

async function waitForJob(jobId: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 200; i++) {
    const res = await call(t.url, `${M}/bulk/jobs/${jobId}`, owner());
    expect(res.status).toBe(200);
    if (res.body.job.status === 'FINISHED' || res.body.job.status === 'FAILED') return res.body.job;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('job did not finish');
}

describe('approve-by-filter', () => {
  it('approves every pending member of the filter in the background and reports progress', async () => {
    const pending = [];
    for (let i = 0; i < 5; i++) pending.push(await ownerCreateMember(t, { loginEmail: `pend${i}@jobs.test`, status: 'PENDING' }));
    const approved = await ownerCreateMember(t, { loginEmail: 'already@jobs.test' });
    const res = await call(t.url, `${M}/bulk/approve-by-filter`, { ...owner(), body: { filter: { status: 'PENDING', loginEmail: { $endsWith: '@jobs.test' } } } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ jobId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const job = await waitForJob(res.body.jobId);
    expect(job).toMatchObject({ id: res.body.jobId, type: 'APPROVE', status: 'FINISHED', total: 5, processed: 5, succeeded: 5, failed: 0, errors: [] });
    expect(job.finishedDate).toEqual(expect.any(String));
    for (const m of pending) {
      const got = await call(t.url, `${M}/${m.id}`, { ...owner(), query: { fieldsets: ['EXTENDED'] } });
      expect(got.body.member.status).toBe('APPROVED');
      expect((await eventsOf(t, m.id)).map((e) => e.slug)).toEqual(['created', 'updated']);
    }
    expect((await eventsOf(t, approved.id)).map((e) => e.slug)).toEqual(['created']);
  });

  it('counts members that cannot make the transition as failures with their errors', async () => {
    const a = await ownerCreateMember(t, { loginEmail: 'blk1@block.test' });
    const b = await ownerCreateMember(t, { loginEmail: 'blk2@block.test' });
    const boss = await ownerCreateMember(t, { loginEmail: 'boss@block.test' });
    await setMemberRoles(serviceContext(t), boss.id, ['OWNER']);
    await call(t.url, `${M}/${b.id}/block`, { ...owner(), body: {} });
    const res = await call(t.url, `${M}/bulk/block-by-filter`, { ...owner(), body: { filter: { loginEmail: { $endsWith: '@block.test' } } } });
    const job = await waitForJob(res.body.jobId);
    expect(job).toMatchObject({ type: 'BLOCK', status: 'FINISHED', total: 3, processed: 3, succeeded: 1, failed: 2 });
    expect((job.errors as { memberId: string }[]).sort((x, y) => x.memberId.localeCompare(y.memberId))).toEqual([
      { memberId: b.id, code: 'MEMBER_STATUS_TRANSITION_NOT_ALLOWED', description: 'Cannot block a member whose status is BLOCKED' },
      { memberId: boss.id, code: 'OWNER_MEMBER_BLOCK_FORBIDDEN', description: 'The site owner\'s member cannot be blocked' },
    ].sort((x, y) => x.memberId.localeCompare(y.memberId)));
    const got = await call(t.url, `${M}/${a.id}`, { ...owner(), query: { fieldsets: ['EXTENDED'] } });
    expect(got.body.member.status).toBe('BLOCKED');
  });
});

describe('delete-by-filter', () => {
  it('deletes the members matching filter and search, content to the assignee', async () => {
    const keep = await ownerCreateMember(t, { loginEmail: 'keep@del.test', profile: { nickname: 'Keeper' } });
    const d1 = await ownerCreateMember(t, { loginEmail: 'd1@del.test', profile: { nickname: 'Spam bot 1' } });
    const d2 = await ownerCreateMember(t, { loginEmail: 'd2@del.test', profile: { nickname: 'spam bot 2' } });
    const res = await call(t.url, `${M}/bulk/delete-by-filter`, { ...owner(), body: { filter: { loginEmail: { $endsWith: '@del.test' } }, search: { expression: 'spam' }, contentAssigneeId: keep.id } });
    expect(res.status).toBe(200);
    const job = await waitForJob(res.body.jobId);
    expect(job).toMatchObject({ type: 'DELETE', status: 'FINISHED', total: 2, succeeded: 2, failed: 0 });
    expect((await call(t.url, `${M}/${d1.id}`, owner())).status).toBe(404);
    expect((await call(t.url, `${M}/${d2.id}`, owner())).status).toBe(404);
    expect((await call(t.url, `${M}/${keep.id}`, owner())).status).toBe(200);
    const events = await eventsOf(t, d1.id);
    expect(events.map((e) => e.slug)).toEqual(['created', 'deleted']);
    expect(events[1]!.payload).toMatchObject({ data: { contentReassignmentRequested: { contentAssigneeId: keep.id } } });
  });

  it('refuses a bad filter, an unknown assignee and a missing filter, starting no job', async () => {
    const badField = await call(t.url, `${M}/bulk/approve-by-filter`, { ...owner(), body: { filter: { password: 'x' } } });
    expect(badField.status).toBe(400);
    expect(badField.body.details.validationError.fieldViolations).toEqual([
      { field: 'filter.password', description: '"password" cannot be filtered on', violatedRule: 'FIELD_NOT_ALLOWED', data: { problem: 'UNKNOWN_FIELD' } },
    ]);
    const missing = await call(t.url, `${M}/bulk/block-by-filter`, { ...owner(), body: {} });
    expect(missing.body.details.validationError.fieldViolations).toEqual([{ field: 'filter', description: 'is required', violatedRule: 'REQUIRED_FIELD', data: {} }]);
    const assignee = randomUUID();
    const bad = await call(t.url, `${M}/bulk/delete-by-filter`, { ...owner(), body: { filter: {}, contentAssigneeId: assignee } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: `Content assignee ${assignee} is not a member`, details: { applicationError: { code: 'INVALID_CONTENT_ASSIGNEE', description: `Content assignee ${assignee} is not a member`, data: { contentAssigneeId: assignee } } } });
    const jobs = await t.server.deps.storage.db.selectFrom('member_jobs').select('id').where('kind', '=', 'DELETE').execute();
    expect(jobs).toHaveLength(1);
  });

  it('answers 404 for an unknown job', async () => {
    const id = randomUUID();
    const res = await call(t.url, `${M}/bulk/jobs/${id}`, owner());
    expect(res.status).toBe(404);
    expect(res.body.details.applicationError).toEqual({ code: 'JOB_NOT_FOUND', description: `Job ${id} not found`, data: { jobId: id } });
  });
});

describe('restart', () => {
  it('a second server process resumes a job interrupted half-way', async () => {
    const members = [];
    for (let i = 0; i < 4; i++) members.push(await ownerCreateMember(t, { loginEmail: `r${i}@resume.test`, status: 'PENDING' }));
    const ctx = serviceContext(t);
    const jobId = randomUUID();
    // As if the first process committed the job, handled one member, and died.
    await insertJobWithItems(ctx.db, { id: jobId, siteId: t.site.id, kind: 'APPROVE', params: { actor: { kind: 'owner', apiKeyId: 'test' } }, now: new Date().toISOString() },
      whereFor(ctx, parseFilter({ loginEmail: { $endsWith: '@resume.test' } }), undefined));
    await finishJobItem(ctx.db, jobId, members.map((m) => m.id).sort()[0]!, undefined);
    await ctx.db.updateTable('member_jobs').set({ status: 'PROCESSING', processed: 1, succeeded: 1 }).where('id', '=', jobId).execute();
    await claimedByADeadProcess(ctx.db, memberBulkJob, { jobId, siteId: t.site.id });

    // Only the second server runs jobs from here on (two SQLite handles writing from one process would
    // wait on each other's locks while blocking the one event loop they share).
    await t.server.jobs.stop();
    const second = await createServer(t.config, createLogger('silent'));
    try {
      await second.jobs.whenIdle();
    } finally {
      await second.close();
    }
    const job = await waitForJob(jobId);
    expect(job).toMatchObject({ status: 'FINISHED', total: 4, processed: 4, succeeded: 4, failed: 0 });
    const statuses = await ctx.db.selectFrom('members').select('status').where('login_email', 'like', '%@resume.test').execute();
    // The member counted as done before the "crash" was not touched again (still PENDING); the other three were approved.
    expect(statuses.map((s) => s.status).sort()).toEqual(['APPROVED', 'APPROVED', 'APPROVED', 'PENDING']);
  });
});
