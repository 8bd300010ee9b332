/**
 * Order hooks over `@vitrine/sdk/ecom` (`orders`): a member reads their own orders (the server scopes
 * them), an owner searches all of them with a filter and cursor and cancels.
 */
import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { bindModule } from '@vitrine/sdk';
import { orders } from '@vitrine/sdk/ecom';
import { useVitrineMutation } from './mutation.js';
import { useVitrineClient } from './provider.js';

const ORDERS = ['vitrine', 'orders'] as const;
/** Orders one history page shows. */
export const MY_ORDERS_PAGE = 50;

/** One order (`orders.getOrder`); a member reads only their own (others answer 404, not retried). */
export function useOrder(id: string | undefined, enabled = true): UseQueryResult<orders.Order> {
  const client = useVitrineClient();
  return useQuery({ queryKey: [...ORDERS, 'detail', id ?? ''], queryFn: () => bindModule(orders, client).getOrder(id!), enabled: enabled && Boolean(id), retry: false });
}

/** The signed-in member's latest orders (`orders.searchOrders`, newest first). */
export function useMyOrders(enabled = true) {
  const client = useVitrineClient();
  return useQuery({
    queryKey: [...ORDERS, 'mine'],
    queryFn: async () => (await bindModule(orders, client).searchOrders({ sort: [{ fieldName: 'createdDate', order: 'DESC' }], cursorPaging: { limit: MY_ORDERS_PAGE } })).orders ?? [],
    enabled,
  });
}

/** Owner search (`orders.searchOrders`): keeps the previous page on screen while the next loads. */
export function useOrders(search: orders.OrdersSearch): UseQueryResult<orders.SearchOrdersResponse> {
  const client = useVitrineClient();
  return useQuery({ queryKey: [...ORDERS, 'search', search], queryFn: () => bindModule(orders, client).searchOrders(search), placeholderData: keepPreviousData });
}

/** `mutate({ _id, restock, sendEmail })`: cancels the order (restocking its items when asked). */
export const useCancelOrder = () =>
  useVitrineMutation((client, v: { _id: string; restock: boolean; sendEmail: boolean }) =>
    bindModule(orders, client).cancelOrder(v._id, { restockAllItems: v.restock, sendOrderCanceledEmail: v.sendEmail }), () => [ORDERS]);
