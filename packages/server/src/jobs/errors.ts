/** Thrown by a handler when retrying cannot help: the job is FAILED at once with this message. */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

/** Thrown by a handler that saw `ctx.signal` abort: the job goes back to the queue without counting an attempt. */
export class JobInterrupted extends Error {
  override name = 'JobInterrupted';
  constructor() {
    super('the process is stopping');
  }
}

/** Thrown by a handler that cannot proceed yet (waiting for another job, a time): run again after `delayMs`, no attempt counted. */
export class JobDeferred extends Error {
  override name = 'JobDeferred';
  constructor(readonly delayMs: number, reason = 'not yet') {
    super(reason);
  }
}
