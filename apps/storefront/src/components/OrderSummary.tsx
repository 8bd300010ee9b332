import type { ReactNode } from 'react';

/** A bought line as a summary shows it; `price` is display text. */
export interface SummaryLine { id: string; quantity: number; name: string; options: string; price: string | undefined; extra?: ReactNode }
/** A priced amount on the wire (checkout, order). */
interface Amount { amount: string; formattedAmount?: string }
/** A price summary of a checkout or an order. */
export interface Summary { subtotal?: Amount; discount?: Amount; shipping?: Amount; tax?: Amount; total?: Amount }

/** Quantity, name, options and unit price of each line (confirmation and order pages). */
export function SummaryLines({ lines }: { lines: SummaryLine[] }) {
  return (
    <ul className="divide-y divide-stone-200 text-sm" data-testid="summary-lines">
      {lines.map((l) => (
        <li key={l.id} className="flex justify-between gap-3 py-2">
          <span>
            {l.quantity} × {l.name}
            {l.options && <span className="block text-stone-700" data-testid="line-options">{l.options}</span>}
            {l.extra}
          </span>
          <span className="shrink-0">{l.price && (l.quantity > 1 ? `${l.price} each` : l.price)}</span>
        </li>
      ))}
    </ul>
  );
}

/** Subtotal, discount (when there is one), shipping, tax and total. */
export function SummaryTotals({ summary }: { summary: Summary | undefined }) {
  const row = (label: string, value: string | undefined, testId: string) => (
    <div className="flex justify-between"><dt className="text-stone-700">{label}</dt><dd data-testid={testId}>{value ?? '—'}</dd></div>
  );
  const discount = summary?.discount && Number(summary.discount.amount) > 0 ? summary.discount : undefined;
  return (
    <dl className="mt-3 space-y-1 border-t border-stone-200 pt-3 text-sm" data-testid="summary-totals">
      {row('Subtotal', summary?.subtotal?.formattedAmount, 'summary-subtotal')}
      {discount && row('Discount', `-${discount.formattedAmount}`, 'summary-discount')}
      {row('Shipping', summary?.shipping?.formattedAmount, 'summary-shipping')}
      {row('Tax', summary?.tax?.formattedAmount, 'summary-tax')}
      <div className="flex justify-between font-semibold"><dt>Total</dt><dd data-testid="summary-total">{summary?.total?.formattedAmount ?? '—'}</dd></div>
    </dl>
  );
}
