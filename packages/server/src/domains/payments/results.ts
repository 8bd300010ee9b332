/**
 * Applies an outcome a provider reported after answering PENDING (the `payments.provider-result` job:
 * the test provider's delayed results, a real gateway's webhooks). Each change is guarded on the
 * payment, capture, void or refund still being in flight, so a report delivered twice applies once.
 */
import type { RequestContext } from '../../http/context.js';
import { syncOrder, withOrderPayments } from './ledger.js';
import type { ProviderReport } from './providers/index.js';
import { finishRefundTransaction } from './refund-settle.js';
import { findPayment, listRefunds, updatePaymentGuarded } from './store.js';

export async function applyProviderReport(ctx: RequestContext, report: ProviderReport): Promise<'applied' | 'skipped'> {
  const found = await findPayment(ctx.db, ctx.site.id, report.paymentId);
  if (!found) return 'skipped';
  return withOrderPayments(ctx, found.orderId, async (op) => {
    const p = op.payments.find((x) => x.id === report.paymentId)!;
    const db = op.ctx.db;
    const site = op.ctx.site.id;
    switch (report.action) {
      case 'authorize': {
        const o = report.outcome;
        if (o.status === 'PENDING') return 'skipped';
        const patch = o.status === 'DECLINED' ? { status: 'DECLINED' as const, declinedReason: o.reason }
          : o.status === 'APPROVED' ? { status: 'APPROVED' as const, captured: p.amount, providerTransactionId: o.providerTransactionId }
            : { status: 'AUTHORIZED' as const, authorizedDate: op.now, providerTransactionId: o.providerTransactionId };
        if (!(await updatePaymentGuarded(db, site, p.id, { fromStatuses: ['PENDING'] }, patch, op.now))) return 'skipped';
        await syncOrder(op, o.status === 'DECLINED' ? { activity: { type: 'PAYMENT_DECLINED' } }
          : o.status === 'AUTHORIZED' ? { activity: { type: 'AUTHORIZED_PAYMENT_CREATED' } } : {});
        return 'applied';
      }
      case 'capture': {
        const o = report.outcome;
        if (o.status === 'PENDING' || p.capture?.id !== report.captureId || p.capture.status !== 'PENDING') return 'skipped';
        const capture = { id: p.capture.id, amount: p.capture.amount, date: p.capture.createdDate };
        const changed = await updatePaymentGuarded(db, site, p.id, { fromStatuses: ['AUTHORIZED'] }, o.status === 'SUCCEEDED'
          ? { status: 'APPROVED', captured: capture.amount, capture: { ...capture, status: 'SUCCEEDED', failureCode: null } }
          : { capture: { ...capture, status: 'FAILED', failureCode: o.failureCode } }, op.now);
        if (!changed) return 'skipped';
        await syncOrder(op, o.status === 'SUCCEEDED' ? { activity: { type: 'AUTHORIZED_PAYMENT_CAPTURED' } } : {});
        return 'applied';
      }
      case 'void': {
        const o = report.outcome;
        if (o.status === 'PENDING' || p.void?.status !== 'PENDING') return 'skipped';
        const changed = await updatePaymentGuarded(db, site, p.id, { fromStatuses: ['AUTHORIZED'] }, {
          ...(o.status === 'SUCCEEDED' ? { status: 'VOIDED' as const } : {}),
          void: { status: o.status, date: p.void.date, reason: p.void.reason, failureCode: o.status === 'FAILED' ? o.failureCode : null },
        }, op.now);
        if (!changed) return 'skipped';
        await syncOrder(op, o.status === 'SUCCEEDED' ? { activity: { type: 'AUTHORIZED_PAYMENT_VOIDED' } } : {});
        return 'applied';
      }
      case 'refund': {
        const refund = (await listRefunds(db, site, [op.order.id])).find((r) => r.id === report.refundId);
        const transaction = refund?.transactions.find((t) => t.paymentId === p.id);
        if (!refund || !transaction) return 'skipped';
        return (await finishRefundTransaction(op, refund, p.id, transaction.amount, report.outcome)) ? 'applied' : 'skipped';
      }
    }
  });
}
