/**
 * The payments domain's services, as the routes call them (docs/payments.md). Every change of an
 * order's payments runs in ledger.ts's frame: one transaction, the order's payments lock, the order's
 * payment status stored with the change.
 */
import type { BulkItemMetadata } from '@vitrine/types';
import type { RequestContext } from '../../http/context.js';
import { ApplicationError } from '../../http/errors.js';
import { markOrderAsPaid } from './charge.js';

export {
  chargeOrder, chargeMemberships, createPaymentGatewayOrder, getCollectability, markOrderAsPaid, payGatewayOrder,
  preparePaymentCollection, recordManualPayment,
} from './charge.js';
export { captureAuthorizedPayments, voidAuthorizedPayments } from './authorizations.js';
export { getRefundability, triggerRefund } from './refunds.js';
export { addPayments, bulkUpdatePaymentStatuses, listTransactions, updatePaymentStatus } from './transactions.js';
export { loadLedger, loadLedgers } from './ledger.js';

/** Marks each order paid in its own transaction; a refused order (unknown, already paid, canceled) is a failed item. */
export async function bulkMarkOrdersAsPaid(ctx: RequestContext, orderIds: readonly string[]): Promise<BulkItemMetadata[]> {
  const results: BulkItemMetadata[] = [];
  for (const [originalIndex, id] of orderIds.entries()) {
    try {
      await markOrderAsPaid(ctx, id);
      results.push({ id, originalIndex, success: true });
    } catch (error) {
      if (!(error instanceof ApplicationError)) throw error;
      results.push({ id, originalIndex, success: false, error: { code: error.code, description: error.description, data: error.data } });
    }
  }
  return results;
}
