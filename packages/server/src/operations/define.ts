import type { RequestContext } from '../http/context.js';

/** What a step receives: the operation's request context (db = the step's transaction when local). */
export interface OperationContext<I = unknown> extends RequestContext {
  operation: {
    id: string;
    name: string;
    /** The running step's name. */
    step: string;
    /** 1 on the first attempt of this step (or compensation), then 2, 3, ... */
    attempt: number;
    input: I;
  };
}

export interface OperationStep<I, S> {
  name: string;
  /**
   * true (default): the step changes only this database, through `ctx.db`; its effect and the
   * progress record commit in one transaction, so it happens exactly once. false: the step reaches
   * outside (a payment provider); it runs outside any transaction and may run again after a crash, so
   * it must be idempotent, e.g. by sending `${ctx.operation.id}:${ctx.operation.step}` as its key.
   * The same holds for its compensation.
   */
  local?: boolean;
  /** Does the step's work; returns the fields it adds to the state (JSON values only). */
  run(ctx: OperationContext<I>, state: Partial<S>): Promise<Partial<S> | void>;
  /** Undoes the step after a later step failed for good; absent = nothing to undo. */
  compensate?(ctx: OperationContext<I>, state: Partial<S>): Promise<void>;
}

export interface Operation<I, S> {
  /** Unique among operations; stored with each run, so recovery finds the definition again. */
  name: string;
  steps: readonly OperationStep<I, S>[];
}

/** Bounds of a definition. */
export const OPERATION_MAX_STEPS = 50;
export const OPERATION_NAME_PATTERN = /^[a-z][a-z0-9.-]{0,99}$/;

/**
 * Definitions by name. Recovery runs only operations whose definition this process has loaded, so
 * a module defining operations must be imported by the process that recovers them (the server does,
 * through the domains that use them).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each entry has its own input and state types
type AnyOperation = Operation<any, any>;
const registry = new Map<string, AnyOperation>();

/** Declares (and registers) a multi-step operation; run it with runOperation (runner.ts). */
export function defineOperation<I, S extends object>(def: Operation<I, S>): Operation<I, S> {
  if (!OPERATION_NAME_PATTERN.test(def.name)) throw new Error(`Operation name "${def.name}" must match ${OPERATION_NAME_PATTERN}`);
  if (def.steps.length === 0 || def.steps.length > OPERATION_MAX_STEPS) throw new Error(`Operation "${def.name}" needs 1 to ${OPERATION_MAX_STEPS} steps`);
  const names = new Set(def.steps.map((s) => s.name));
  if (names.size !== def.steps.length) throw new Error(`Operation "${def.name}" has two steps of one name`);
  const existing = registry.get(def.name);
  if (existing && existing !== def) throw new Error(`Operation "${def.name}" is defined twice`);
  registry.set(def.name, def);
  return def;
}

export function registeredOperation(name: string): AnyOperation | undefined {
  return registry.get(name);
}

export function registeredOperationNames(): string[] {
  return [...registry.keys()];
}
