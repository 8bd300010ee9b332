import { Link } from 'react-router';
import { useOrders } from '@vitrine/react';
import { ErrorAlert } from '../components/Alert';
import { formatDate } from '../components/Form';
import { StatusBadge } from '../components/StatusBadge';
import { money } from './model';

/** Orders a member shows on their page. */
const MEMBER_ORDERS_SHOWN = 20;

/** The member's latest orders, each linking to its order page. */
export function MemberOrders({ memberId }: { memberId: string }) {
  const list = useOrders({ filter: { 'buyerInfo.memberId': memberId }, sort: [{ fieldName: 'createdDate', order: 'DESC' }], cursorPaging: { limit: MEMBER_ORDERS_SHOWN } });
  const rows = list.data?.orders ?? [];
  return (
    <section aria-label="Member orders" className="mt-6 text-sm">
      <h3 className="mb-2 font-medium">Orders</h3>
      <ErrorAlert error={list.error} />
      {!list.isLoading && rows.length === 0 && <p className="text-slate-600">No orders.</p>}
      <ul className="space-y-1">
        {rows.map((o) => (
          <li key={o._id} data-testid="member-order" className="flex items-center gap-2">
            <Link className="font-medium underline" to={`/orders/${o._id}`}>#{o.number}</Link>
            <span className="text-slate-600">{formatDate(o._createdDate)}</span>
            <StatusBadge value={o.paymentStatus} />
            <span className="ml-auto">{money(o.priceSummary.total)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
