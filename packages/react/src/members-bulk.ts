/** Members by filter as background jobs (approve, block, delete) and their progress (owner only). */
import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useEffect } from 'react';
import { bindModule } from '@vitrine/sdk';
import { members } from '@vitrine/sdk/members';
import { invalidates } from './keys.js';
import { useVitrineMutation } from './mutation.js';
import { useVitrineClient } from './provider.js';

export type MemberBulkAction = 'approve' | 'block' | 'delete';
/** How often a running job's progress is read. */
export const BULK_JOB_POLL_MS = 500;

/** `mutate({ action, filter })` -> `{ jobId }`; the job runs in the background. */
export const useStartMemberBulkJob = () =>
  useVitrineMutation((client, { action, filter }: { action: MemberBulkAction; filter: Record<string, unknown> }) => {
    const m = bindModule(members, client);
    if (action === 'approve') return m.bulkApproveMembers(filter);
    if (action === 'block') return m.bulkBlockMembers(filter);
    return m.bulkDeleteMembersByFilter(filter);
  }, () => []);

const done = (job: members.BulkJob | undefined) => job?.status === 'FINISHED' || job?.status === 'FAILED';

/** A by-filter job's progress, read every BULK_JOB_POLL_MS until it ends; member lists refresh then. */
export function useMemberBulkJob(jobId: string | undefined): UseQueryResult<members.BulkJob> {
  const client = useVitrineClient();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['vitrine', 'memberJobs', jobId ?? ''],
    queryFn: async () => (await bindModule(members, client).getBulkJob(jobId!)).job,
    enabled: Boolean(jobId),
    refetchInterval: (q) => (done(q.state.data) ? false : BULK_JOB_POLL_MS),
  });
  const finished = done(query.data);
  useEffect(() => {
    if (finished) for (const queryKey of invalidates.member()) void queryClient.invalidateQueries({ queryKey });
  }, [finished, queryClient]);
  return query;
}
