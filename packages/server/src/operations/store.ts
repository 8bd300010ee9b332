import type { Executor } from '../storage/database.js';

/** All SQL of the operations table. JSON columns are text on both dialects. */

export type OperationStatus = 'RUNNING' | 'COMPLETED' | 'COMPENSATING' | 'COMPENSATED' | 'FAILED';
export const UNFINISHED: OperationStatus[] = ['RUNNING', 'COMPENSATING'];

export interface OperationTable {
  id: string;
  site_id: string;
  name: string;
  input: string;
  state: string;
  /** The caller and origin the operation started with, so recovery runs its steps as the same caller. */
  context: string;
  status: OperationStatus;
  /**
   * RUNNING: index of the next step to run (= steps done). COMPENSATING: steps done and not yet
   * compensated (step - 1 is compensated next).
   */
  step: number;
  /** Failed attempts of the current step or compensation (a recovery after a crash counts as one). */
  attempts: number;
  error: string | null;
  /** Runner holding the operation; others leave it alone until lease_until has passed. */
  lease_owner: string | null;
  lease_until: string | null;
  created_at: string;
  updated_at: string;
}

declare module '../storage/schema.js' {
  interface Database {
    operations: OperationTable;
  }
}

export async function insertOperation(db: Executor, row: OperationTable): Promise<void> {
  await db.insertInto('operations').values(row).execute();
}

export async function findOperation(db: Executor, id: string): Promise<OperationTable | undefined> {
  return db.selectFrom('operations').selectAll().where('id', '=', id).executeTakeFirst();
}

export type ProgressChange = Partial<Pick<OperationTable, 'state' | 'status' | 'step' | 'attempts' | 'error'>>;

/**
 * Writes progress only while `owner` still holds the lease and the operation is where the runner left
 * it; renews the lease, or drops it when the operation ends. Returns false when another runner has
 * taken over (the caller then abandons, and its transaction, if any, rolls back).
 */
export async function saveProgress(
  db: Executor,
  id: string,
  owner: string,
  expected: { status: OperationStatus; step: number },
  change: ProgressChange,
  leaseUntil: string | null,
  now: string,
): Promise<boolean> {
  const ending = change.status !== undefined && !UNFINISHED.includes(change.status);
  const result = await db.updateTable('operations')
    .set({ ...change, lease_owner: ending ? null : owner, lease_until: ending ? null : leaseUntil, updated_at: now })
    .where('id', '=', id).where('lease_owner', '=', owner)
    .where('status', '=', expected.status).where('step', '=', expected.step)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Takes an unfinished operation whose lease has run out; a takeover counts as one failed attempt. */
export async function claimOperation(db: Executor, id: string, owner: string, now: string, leaseUntil: string): Promise<boolean> {
  const result = await db.updateTable('operations')
    .set((eb) => ({ lease_owner: owner, lease_until: leaseUntil, attempts: eb('attempts', '+', 1), updated_at: now }))
    .where('id', '=', id).where('status', 'in', UNFINISHED)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ids of unfinished operations of these names whose lease has run out, oldest change first. */
export async function listAbandoned(db: Executor, names: string[], now: string, limit: number): Promise<string[]> {
  if (names.length === 0) return [];
  const rows = await db.selectFrom('operations').select('id')
    .where('status', 'in', UNFINISHED).where('name', 'in', names)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .orderBy('updated_at').orderBy('id').limit(limit)
    .execute();
  return rows.map((r) => r.id);
}
