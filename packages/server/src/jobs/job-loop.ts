import type { AppDeps } from '../http/context.js';

/**
 * The in-process loop behind a domain's bulk jobs (members, catalog): one per server (per AppDeps),
 * woken when a job starts, running unfinished jobs one after another until none is left. Jobs live in
 * the database, so a stopped server resumes them at its next start (`ensure`).
 */
export interface JobLoop {
  /** Starts the loop unless it runs; a running loop looks for jobs once more before it stops. */
  kick(deps: AppDeps): void;
  /** Resumes unfinished jobs once per server (call at start; routes may call it on first use). */
  ensure(deps: AppDeps): void;
  /** Resolves when the loop has nothing left to do (shutdown and tests wait on it). */
  idle(deps: AppDeps): Promise<void>;
}

export interface JobLoopOptions<J> {
  /** Named in the log line when the loop stops on an error. */
  name: string;
  next(deps: AppDeps): Promise<J | undefined>;
  run(deps: AppDeps, job: J): Promise<void>;
  /** Restarts after a database failure, `retryMs` x the failure count apart. */
  maxRetries: number;
  retryMs: number;
}

interface LoopState { running: boolean; again: boolean; started: boolean; idle: Promise<void>; failures: number }

export function jobLoop<J>(options: JobLoopOptions<J>): JobLoop {
  const states = new WeakMap<AppDeps, LoopState>();
  const stateOf = (deps: AppDeps): LoopState => {
    let state = states.get(deps);
    if (!state) states.set(deps, (state = { running: false, again: false, started: false, idle: Promise.resolve(), failures: 0 }));
    return state;
  };

  async function runLoop(deps: AppDeps, state: LoopState): Promise<void> {
    try {
      for (;;) {
        state.again = false;
        const job = await options.next(deps);
        if (job) {
          await options.run(deps, job);
          state.failures = 0;
          continue;
        }
        if (!state.again) return;
      }
    } catch (error) {
      // The database failed or went away (shutdown): the job stays unfinished. Retry a few times with
      // growing pauses (unref'd timers never keep a stopping process alive); the next start resumes it.
      state.failures += 1;
      deps.log.warn({ err: error, failures: state.failures }, `${options.name} stopped`);
      if (state.failures <= options.maxRetries) setTimeout(() => kick(deps), options.retryMs * state.failures).unref();
    } finally {
      state.running = false;
    }
  }

  function kick(deps: AppDeps): void {
    const state = stateOf(deps);
    state.started = true;
    if (state.running) {
      state.again = true;
      return;
    }
    state.running = true;
    state.idle = runLoop(deps, state);
  }

  return {
    kick,
    ensure: (deps) => { if (!stateOf(deps).started) kick(deps); },
    idle: (deps) => stateOf(deps).idle,
  };
}
