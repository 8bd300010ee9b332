/** Multi-step operations with stored progress, retries and compensation (docs/operations.md). */
export { defineOperation, OPERATION_MAX_STEPS, type Operation, type OperationContext, type OperationStep } from './define.js';
export {
  getOperationOutcome, operationError, recoverOperations, runOperation,
  OPERATION_COMPENSATION_MAX_ATTEMPTS, OPERATION_KEY_TTL_MS, OPERATION_LEASE_MS, OPERATION_RECOVERY_BATCH, OPERATION_RETRY_DELAY_MS,
  OPERATION_STEP_MAX_ATTEMPTS, OPERATION_WAIT_MS,
  type OperationError, type OperationOutcome, type RecoveryReport, type RunOptions,
} from './runner.js';
export type { OperationStatus } from './store.js';
