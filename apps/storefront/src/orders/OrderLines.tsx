import type { orders } from '@vitrine/sdk/ecom';
import { SummaryLines } from '../components/OrderSummary';
import { orderLines } from './order-view';

/** An order's lines; a paid digital line links its file (the buyer's download link). */
export function OrderLines({ order }: { order: orders.Order }) {
  const files = new Map(order.lineItems.flatMap((l) => (l.digitalFile ? [[l._id, l.digitalFile] as const] : [])));
  return (
    <SummaryLines lines={orderLines(order).map((line) => {
      const file = files.get(line.id);
      if (!file) return line;
      return { ...line, extra: <a href={file.link} className="block underline" data-testid="download-link" title={`Link valid until ${file.expirationDate.toLocaleString()}`}>Download {line.name}</a> };
    })} />
  );
}
