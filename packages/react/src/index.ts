/** `@vitrine/react`: the provider and hooks over `@vitrine/sdk` and TanStack Query. */
export { VitrineProvider, useVitrineClient, OUTSIDE_PROVIDER_MESSAGE } from './provider.js';
export type { VitrineProviderProps } from './provider.js';
export { queryKeys, invalidates } from './keys.js';
export { useVitrineMutation } from './mutation.js';
export type { QueryHookOptions } from './mutation.js';
export { useProducts, useInfiniteProducts, useProduct, useCollections } from './products.js';
export type { ProductsQueryOptions, CollectionsQueryOptions } from './products.js';
export {
  useCreateProduct, useUpdateProduct, useDeleteProduct, useUpdateInventoryVariants, useUploadProductImage, useRemoveProductMedia,
  useCreateCollection, useUpdateCollection, useDeleteCollection, useAddProductsToCollection, useRemoveProductsFromCollection,
} from './catalog-writes.js';
export { useMembers, useMember, useCurrentMember, useMemberAction, useDeleteMember, useReports, useResolveReport, useSendPasswordLink } from './members.js';
export type { MembersQueryOptions, MemberAction } from './members.js';
export { useDataCollections, useDataCollection, useDataItems, useInsertDataItem, useRemoveDataItem } from './data.js';
export type { DataItemsOptions, DataItemCondition, DataItemOperator } from './data.js';
export { useCreateDataCollection, useUpdateDataCollection, useDeleteDataCollection, useDataIndexes, useCreateDataIndex, useDropDataIndex, useUpdateDataItem, DATA_INDEXES_MAX } from './data-collections.js';
export {
  useWebhookSubscriptions, useWebhookSubscription, useCreateWebhookSubscription, useUpdateWebhookSubscription, useDeleteWebhookSubscription,
  useWebhookDeliveries, useWebhookDelivery, useRedeliver, useMails,
} from './events.js';
export {
  useProductList, useProductBySlug, useCollectionList, productListQuery, productBySlugQuery, collectionListQuery, preloadCatalogQueries, dehydrateQueries, hydrateQueries,
} from './prefetch.js';
export type { ProductList, ProductListOptions } from './prefetch.js';
export { useUpdateMyMember, useUpdateMySlug, useCommunityMembership } from './account.js';
export {
  useCurrentCart, useAddToCart, useUpdateCartQuantity, useRemoveFromCart, useCartCoupon, useCartTotals, useCreateCheckout, useCheckout, useUpdateCheckout, usePlaceOrder, usePlaceOrderAndCharge, chargeOutcome, cartKeys,
} from './cart.js';
export { useOrder, useMyOrders, MY_ORDERS_PAGE } from './orders.js';
export type { ChargeOutcome } from './cart.js';
export { useAuth } from './auth.js';
export type { AuthState } from './auth.js';
export * from './owners.js';
export { useWebhookEventTypes } from './event-types.js';
export { useUpdateProductVariants } from './catalog-variants.js';
export { useProductsV3, useProductV3, useCreateProductV3, useUpdateProductV3, useDeleteProductV3, useUploadMediaFile } from './catalog-v3.js';
export type { ProductsV3Options } from './catalog-v3.js';
export { firstDifference, useReorderProductMedia, useSetProductCollections, useProductStockRows, useSetStockRows, PRODUCT_STOCK_ROWS_MAX } from './catalog-editor.js';
export type { StockRowInput } from './catalog-editor.js';
export { useStartMemberBulkJob, useMemberBulkJob, BULK_JOB_POLL_MS } from './members-bulk.js';
export type { MemberBulkAction } from './members-bulk.js';
export { useProductBulkAction } from './catalog-bulk.js';
export type { ProductBulkAction, ProductBulkResult } from './catalog-bulk.js';
export { useImportDataItems, useExportDataItems, DATA_CHUNK } from './data-transfer.js';
export type { TransferProgress } from './data-transfer.js';
export { useOrders, useCancelOrder } from './orders.js';
export {
  useOrderTransactions, useOrderFulfillments, useRefundability, useCollectability, useMarkOrderPaid, useRecordManualPayment, useCapturePayment, useVoidPayment,
  useRefundOrder, useCreateFulfillment, useUpdateFulfillment, useDeleteFulfillment, useOrderTags, useAddOrderComment, useUpdateOrderComment,
  useDeleteOrderComment, useEditOrderQuantities, useOrderEditPreview, useAbandonedCheckouts, useDeleteAbandonedCheckout, ABANDONED_PAGE,
} from './order-admin.js';
export type { RefundRequest, FulfillmentDraft } from './order-admin.js';
export * from './store-settings.js';
export { useOrderAggregate, useNewMembers, useLowStock, overviewKeys, OVERVIEW_REFRESH_MS, NEW_MEMBERS_MAX } from './overview.js';
export type { NewMembers } from './overview.js';
