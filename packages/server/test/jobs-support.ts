import type { Executor } from '../src/storage/database.js';
import { inTransaction } from '../src/storage/transaction.js';
import type { JobKind } from '../src/jobs/kinds.js';
import { enqueueJob } from '../src/jobs/service.js';

/** Queues a job as if a process had claimed it (one attempt) and died: RUNNING, with a lease that already expired. */
export async function claimedByADeadProcess<P>(db: Executor, kind: JobKind<P>, payload: P): Promise<string> {
  return inTransaction(db, async (trx) => {
    const { jobId } = await enqueueJob(trx, kind, payload);
    await trx.updateTable('jobs').set({ status: 'RUNNING', attempts: 1, lease_owner: 'a-dead-process', lease_until: new Date(Date.now() - 1_000).toISOString() })
      .where('id', '=', jobId).execute();
    return jobId;
  });
}
