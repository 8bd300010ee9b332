/**
 * Moving many data items in and out (owner CSV import/export): chunks of at most DATA_CHUNK items, one
 * `bulkInsert` or one query page per chunk, reporting progress after each.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { bindModule } from '@vitrine/sdk';
import { items } from '@vitrine/sdk/data';
import { invalidates } from './keys.js';
import { useVitrineClient } from './provider.js';

/** Items per bulk insert and per export page (the server's bulk and page bound). */
export const DATA_CHUNK = 1000;

export interface TransferProgress { done: number; total: number }

/** `mutateAsync({ collectionId, rows, onProgress })` -> `{ inserted, skipped, failed, errors }`. */
export function useImportDataItems() {
  const client = useVitrineClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ collectionId, rows, onProgress }: { collectionId: string; rows: Record<string, unknown>[]; onProgress?: (p: TransferProgress) => void }) => {
      const data = bindModule(items, client);
      let inserted = 0;
      let skipped = 0;
      let failed = 0;
      const errors: string[] = [];
      for (let start = 0; start < rows.length; start += DATA_CHUNK) {
        const res = await data.bulkInsert(collectionId, rows.slice(start, start + DATA_CHUNK));
        inserted += res.inserted;
        skipped += res.skipped;
        failed += res.errors.length;
        for (const e of res.errors.slice(0, 10 - errors.length)) errors.push(`row ${start + e.originalIndex + 2}: ${e.message}`);
        onProgress?.({ done: Math.min(start + DATA_CHUNK, rows.length), total: rows.length });
      }
      return { inserted, skipped, failed, errors };
    },
    onSuccess: async (_r, v) => {
      await Promise.all(invalidates.dataItems(v.collectionId).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
  });
}

/** Every item of a collection, oldest first, page by page -> the items. */
export function useExportDataItems() {
  const client = useVitrineClient();
  return useMutation({
    mutationFn: async ({ collectionId, onProgress }: { collectionId: string; onProgress?: (p: TransferProgress) => void }) => {
      const data = bindModule(items, client);
      const all: items.WixDataItem[] = [];
      let page = await data.query(collectionId).ascending('_createdDate').ascending('_id').limit(DATA_CHUNK).find({ returnTotalCount: true });
      for (;;) {
        all.push(...page.items);
        onProgress?.({ done: all.length, total: page.totalCount ?? all.length });
        if (!page.hasNext()) break;
        page = await page.next();
      }
      return all;
    },
  });
}
