/** The shopper's orders (`@vitrine/sdk/ecom` orders): members see their own, newest first. */
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { bindModule } from '@vitrine/sdk';
import { orders } from '@vitrine/sdk/ecom';
import { useVitrineClient } from './provider.js';

const ROOT = ['vitrine', 'orders'] as const;
/** Orders one history page shows. */
export const MY_ORDERS_PAGE = 50;

/** One order (`orders.getOrder`); members read only their own (others answer 404). */
export function useOrder(id: string | undefined, enabled = true): UseQueryResult<orders.Order> {
  const client = useVitrineClient();
  return useQuery({ queryKey: [...ROOT, 'detail', id ?? ''], queryFn: () => bindModule(orders, client).getOrder(id!), enabled: enabled && Boolean(id), retry: false });
}

/** The signed-in member's latest orders (`orders.searchOrders`, newest first). */
export function useMyOrders(enabled = true) {
  const client = useVitrineClient();
  return useQuery({
    queryKey: [...ROOT, 'mine'],
    queryFn: async () => (await bindModule(orders, client).searchOrders({ sort: [{ fieldName: 'createdDate', order: 'DESC' }], cursorPaging: { limit: MY_ORDERS_PAGE } })).orders ?? [],
    enabled,
  });
}
