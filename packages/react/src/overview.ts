/**
 * Overview hooks for the dashboard's landing page over `@vitrine/sdk`: order aggregates (counts and
 * exact totals per group), the members who joined since a date, and variants running low on stock.
 * Keys live under `['vitrine', 'overview']`; any order or member write elsewhere does not touch them,
 * so they refetch on a timer (`OVERVIEW_REFRESH_MS`) instead.
 */
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { bindModule } from '@vitrine/sdk';
import { orders } from '@vitrine/sdk/ecom';
import { members } from '@vitrine/sdk/members';
import { products } from '@vitrine/sdk/stores';
import type { OrderAggregateGroup, OrderAggregation } from '@vitrine/types';
import { useVitrineClient } from './provider.js';

const OVERVIEW = ['vitrine', 'overview'] as const;
/** How often the overview's figures refresh while it is open. */
export const OVERVIEW_REFRESH_MS = 30_000;
/** Members read per page when counting new members (the server's member page maximum). */
const MEMBER_PAGE = 100;
/** Most new members the overview counts; past this the answer says it is truncated. */
export const NEW_MEMBERS_MAX = 2_000;

export const overviewKeys = {
  all: OVERVIEW,
  aggregate: (aggregation: OrderAggregation, filter?: Record<string, unknown>) => [...OVERVIEW, 'aggregate', aggregation, filter ?? {}] as const,
  newMembers: (since: string) => [...OVERVIEW, 'newMembers', since] as const,
  lowStock: (threshold: number, limit: number) => [...OVERVIEW, 'lowStock', threshold, limit] as const,
};

/** `orders.aggregateOrders(aggregation, { filter })` -> its groups. Elevated. */
export function useOrderAggregate(aggregation: OrderAggregation, filter?: Record<string, unknown>): UseQueryResult<OrderAggregateGroup[]> {
  const client = useVitrineClient();
  return useQuery({
    queryKey: overviewKeys.aggregate(aggregation, filter),
    queryFn: async () => (await bindModule(orders, client).aggregateOrders(aggregation, filter ? { filter } : {})).aggregates.groups,
    refetchInterval: OVERVIEW_REFRESH_MS,
  });
}

export interface NewMembers { createdDates: Date[]; truncated: boolean }

/** Creation dates of the members who joined at or after `since` (at most NEW_MEMBERS_MAX), oldest first. */
export function useNewMembers(since: Date): UseQueryResult<NewMembers> {
  const client = useVitrineClient();
  const iso = since.toISOString();
  return useQuery({
    queryKey: overviewKeys.newMembers(iso),
    queryFn: async () => {
      const createdDates: Date[] = [];
      for (let skip = 0; skip < NEW_MEMBERS_MAX; skip += MEMBER_PAGE) {
        const page = await bindModule(members, client).queryMembers().ge('_createdDate', new Date(iso)).ascending('_createdDate').limit(MEMBER_PAGE).skip(skip).find();
        for (const m of page.items) if (m._createdDate) createdDates.push(m._createdDate);
        if (page.items.length < MEMBER_PAGE) return { createdDates, truncated: false };
      }
      return { createdDates, truncated: true };
    },
    refetchInterval: OVERVIEW_REFRESH_MS,
  });
}

/** Variants that track quantity and have `threshold` or fewer left, fewest first. Elevated. */
export function useLowStock(threshold: number, limit: number): UseQueryResult<products.StoreVariant[]> {
  const client = useVitrineClient();
  return useQuery({
    queryKey: overviewKeys.lowStock(threshold, limit),
    queryFn: async () => (await bindModule(products, client).queryStoreVariants({
      filter: { 'stock.trackQuantity': true, 'stock.quantity': { $lte: threshold } },
      sort: [{ fieldName: 'stock.quantity', order: 'ASC' }],
      paging: { limit },
    })).variants,
    refetchInterval: OVERVIEW_REFRESH_MS,
  });
}
