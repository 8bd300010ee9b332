import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { createMemberFromIdentity, getMemberStatus } from '../src/domains/members/service.js';
import { inTransaction } from '../src/storage/transaction.js';
import { serviceContext } from './member-tokens.js';

let t: TestServer;
beforeAll(async () => { t = await startTestServer(); });
afterAll(() => t?.close());

describe('members service for identity', () => {
  it('creates a member inside the caller transaction and reads its status', async () => {
    const ctx = serviceContext(t);
    const id = randomUUID();
    await inTransaction(ctx.db, (trx) => createMemberFromIdentity({ ...ctx, db: trx }, { id, loginEmail: 'Ann@Example.com', status: 'PENDING', profile: { nickname: 'Ann Lee' } }));
    expect(await getMemberStatus(ctx, id)).toBe('PENDING');
    expect(await getMemberStatus(ctx, randomUUID())).toBeUndefined();
  });

  it('rolls the member back with the caller transaction', async () => {
    const ctx = serviceContext(t);
    const id = randomUUID();
    await expect(inTransaction(ctx.db, async (trx) => {
      await createMemberFromIdentity({ ...ctx, db: trx }, { id, loginEmail: 'rollback@example.com', status: 'APPROVED' });
      throw new Error('boom');
    })).rejects.toThrow('boom');
    expect(await getMemberStatus(ctx, id)).toBeUndefined();
  });
});
