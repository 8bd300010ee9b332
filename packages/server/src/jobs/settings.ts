import { envInt } from '../env.js';
/** Tunables of the job runner (docs/jobs.md lists the environment names). */
export interface JobsSettings {
  /** Run jobs in this process (JOBS_RUNNER=off for API-only replicas). */
  runnerEnabled: boolean;
  /** How often an idle runner looks for due jobs (other processes' jobs, retries coming due). */
  pollIntervalMs: number;
  /** How long a claim holds; renewed while the job runs, so only a dead process's jobs expire. */
  leaseMs: number;
  /** First retry delay; doubles per attempt up to backoffMaxMs, plus up to JITTER_SHARE of it at random. */
  backoffBaseMs: number;
  backoffMaxMs: number;
}

export const DEFAULT_JOBS_SETTINGS: JobsSettings = {
  runnerEnabled: true,
  pollIntervalMs: 1_000,
  leaseMs: 30_000,
  backoffBaseMs: 5_000,
  backoffMaxMs: 3_600_000,
};

/** Shortest poll interval and lease accepted, so a typo cannot make a busy loop or a lease renewed nonstop. */
const MIN_POLL_MS = 5;
const MIN_LEASE_MS = 500;


export function loadJobsSettings(env: NodeJS.ProcessEnv = process.env): JobsSettings {
  const d = DEFAULT_JOBS_SETTINGS;
  return {
    runnerEnabled: !['off', 'false', '0'].includes((env.JOBS_RUNNER ?? '').toLowerCase()),
    pollIntervalMs: Math.max(MIN_POLL_MS, envInt(env, 'JOBS_POLL_MS', d.pollIntervalMs)),
    leaseMs: Math.max(MIN_LEASE_MS, envInt(env, 'JOBS_LEASE_MS', d.leaseMs)),
    backoffBaseMs: envInt(env, 'JOBS_BACKOFF_BASE_MS', d.backoffBaseMs),
    backoffMaxMs: envInt(env, 'JOBS_BACKOFF_MAX_MS', d.backoffMaxMs),
  };
}
