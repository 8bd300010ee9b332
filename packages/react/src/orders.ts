/** Owner order hooks over `@vitrine/sdk/ecom` (`orders`): search with a filter and cursor, one order, cancel. */
import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { bindModule } from '@vitrine/sdk';
import { orders } from '@vitrine/sdk/ecom';
import { useVitrineMutation } from './mutation.js';
import { useVitrineClient } from './provider.js';

const ORDERS = ['vitrine', 'orders'] as const;

export function useOrders(search: orders.OrdersSearch): UseQueryResult<orders.SearchOrdersResponse> {
  const client = useVitrineClient();
  return useQuery({ queryKey: [...ORDERS, 'search', search], queryFn: () => bindModule(orders, client).searchOrders(search), placeholderData: keepPreviousData });
}

export function useOrder(id: string | undefined): UseQueryResult<orders.Order> {
  const client = useVitrineClient();
  return useQuery({ queryKey: [...ORDERS, 'detail', id ?? ''], queryFn: () => bindModule(orders, client).getOrder(id!), enabled: Boolean(id) });
}

/** `mutate({ _id, restock, sendEmail })`: cancels the order (restocking its items when asked). */
export const useCancelOrder = () =>
  useVitrineMutation((client, v: { _id: string; restock: boolean; sendEmail: boolean }) =>
    bindModule(orders, client).cancelOrder(v._id, { restockAllItems: v.restock, sendOrderCanceledEmail: v.sendEmail }), () => [ORDERS]);
