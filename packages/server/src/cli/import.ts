/**
 * `vitrine import products|items`: loads a CSV or JSON file into a site through the same service
 * calls and request schemas the HTTP API uses, with progress, and resumable: run the same command
 * again after a crash or Ctrl-C and it finishes the file without creating anything twice.
 *
 * - products: each row is created under an idempotency record keyed by (file hash, row), written in
 *   the product's own transaction, so a row is either created with its record or not at all; a
 *   re-run finds the record and skips the row. A row the interrupted run was in the middle of is still
 *   claimed by it for a minute (IDEMPOTENCY_LEASE_MS); the re-run comes back to such rows at the end.
 * - items: each row without `_id` gets one derived from (file hash, row); a re-run inserts the same
 *   ids again and the data domain answers "already exists" (WDE0074) for the rows already there.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { RequestContext } from '../http/context.js';
import { hashRequest, IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_MAX_TTL_MS, IdempotencyConflict, withIdempotency } from '../storage/idempotency.js';
import { createProduct } from '../domains/catalog/service.js';
import { productInput } from '../domains/catalog/schema.js';

/** A create-product request's `product`, as the route's schema parses it. */
type ProductInput = z.infer<typeof productInput>;
import { bulkWrite } from '../domains/data/bulk.js';
import { BULK_MAX } from '../domains/data/common.js';
import { parseCsv } from './csv.js';

/** Largest file an import reads (bytes); bigger files are split by the caller. */
export const IMPORT_MAX_FILE_BYTES = 200 * 1024 * 1024;
/** Most rows in one file. */
export const IMPORT_MAX_ROWS = 1_000_000;

export type ImportKind = 'products' | 'items';

export interface ImportProgress { done: number; total: number }

export interface ImportResult {
  total: number;
  created: number;
  /** Rows a previous run of the same file had already imported. */
  alreadyImported: number;
  failed: { row: number; error: string }[];
}

export class ImportFileError extends Error {}

/** Reads the rows of a `.csv` or `.json` (an array of objects) file and the file's content hash. */
export async function readImportFile(file: string): Promise<{ rows: Record<string, unknown>[]; sha: string }> {
  const info = await stat(file);
  if (info.size > IMPORT_MAX_FILE_BYTES) throw new ImportFileError(`${file} is ${info.size} bytes; an import reads at most ${IMPORT_MAX_FILE_BYTES}`);
  const bytes = await readFile(file);
  const sha = createHash('sha256').update(bytes).digest('hex');
  const text = bytes.toString('utf8');
  const ext = path.extname(file).toLowerCase();
  let rows: unknown;
  if (ext === '.csv') rows = parseCsv(text);
  else if (ext === '.json') {
    try {
      rows = JSON.parse(text);
    } catch (error) {
      throw new ImportFileError(`${file} is not valid JSON: ${(error as Error).message}`);
    }
  } else throw new ImportFileError(`${file}: use a .csv or .json file`);
  if (!Array.isArray(rows) || !rows.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r))) {
    throw new ImportFileError(`${file} must hold an array of objects`);
  }
  if (rows.length > IMPORT_MAX_ROWS) throw new ImportFileError(`${file} has ${rows.length} rows; an import takes at most ${IMPORT_MAX_ROWS}`);
  return { rows: rows as Record<string, unknown>[], sha };
}

/** A CSV product row (flat columns) as the create-product request's `product`; JSON rows pass as they are. */
export function productFromRow(row: Record<string, unknown>): unknown {
  if (row.priceData !== undefined || typeof row.price !== 'string') return row;
  const num = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v);
  const bool = (v: unknown) => (v === 'true' ? true : v === 'false' ? false : v);
  const { price, cost, quantity, weight, visible, ...rest } = row;
  return {
    ...rest,
    productType: rest.productType ?? 'physical',
    priceData: { price: num(price) },
    ...(cost !== undefined ? { costAndProfitData: { itemCost: num(cost) } } : {}),
    ...(weight !== undefined ? { weight: num(weight) } : {}),
    ...(visible !== undefined ? { visible: bool(visible) } : {}),
    ...(quantity !== undefined ? { stock: { trackInventory: true, quantity: num(quantity) } } : {}),
  };
}

function describeZodError(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(row)'}: ${i.message}`).join('; ');
}

function describeError(error: unknown): string {
  if (error instanceof z.ZodError) return describeZodError(error);
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Imports every row; `onProgress` is called after each row (products) or batch (items). */
export async function runImport(
  ctx: RequestContext,
  opts: { kind: ImportKind; rows: Record<string, unknown>[]; sha: string; collectionId?: string | undefined },
  onProgress: (p: ImportProgress) => void = () => {},
): Promise<ImportResult> {
  const result: ImportResult = { total: opts.rows.length, created: 0, alreadyImported: 0, failed: [] };
  if (opts.kind === 'products') await importProducts(ctx, opts.rows, opts.sha, result, onProgress);
  else {
    if (!opts.collectionId) throw new ImportFileError('importing items needs --collection');
    await importItems(ctx, opts.collectionId, opts.rows, opts.sha, result, onProgress);
  }
  return result;
}

async function importProducts(ctx: RequestContext, rows: Record<string, unknown>[], sha: string, result: ImportResult, onProgress: (p: ImportProgress) => void) {
  // Rows whose key a stopped run still holds (its claim lapses after IDEMPOTENCY_LEASE_MS): retried at the end.
  const held: { index: number; input: ProductInput }[] = [];
  for (const [index, row] of rows.entries()) {
    const parsed = productInput.safeParse(productFromRow(row));
    if (!parsed.success) result.failed.push({ row: index + 1, error: describeZodError(parsed.error) });
    else if ((await importProduct(ctx, sha, index, parsed.data, result)) === 'held') held.push({ index, input: parsed.data });
    onProgress({ done: index + 1, total: rows.length });
  }
  if (held.length === 0) return;
  await new Promise((resolve) => setTimeout(resolve, IDEMPOTENCY_LEASE_MS));
  for (const { index, input } of held) {
    if ((await importProduct(ctx, sha, index, input, result)) === 'held') {
      result.failed.push({ row: index + 1, error: 'another import of this file is creating this row; run the import again' });
    }
  }
}

/** One row under its idempotency record: created now, already imported, failed, or held by another run. */
async function importProduct(ctx: RequestContext, sha: string, index: number, input: ProductInput, result: ImportResult): Promise<'done' | 'held'> {
  try {
    const outcome = await withIdempotency(ctx.db, {
      siteId: ctx.site.id, scope: 'cli:import:products', key: `${sha}:${index}`, requestHash: hashRequest(input), ttlMs: IDEMPOTENCY_MAX_TTL_MS,
    }, async (trx) => {
      const product = await createProduct({ ...ctx, db: trx }, input);
      return { status: 200, body: { id: product.id } };
    });
    if (outcome.replayed) result.alreadyImported++;
    else result.created++;
  } catch (error) {
    if (error instanceof IdempotencyConflict && error.code === 'IDEMPOTENCY_KEY_IN_USE') return 'held';
    result.failed.push({ row: index + 1, error: describeError(error) });
  }
  return 'done';
}

async function importItems(ctx: RequestContext, collectionId: string, rows: Record<string, unknown>[], sha: string, result: ImportResult, onProgress: (p: ImportProgress) => void) {
  for (let start = 0; start < rows.length; start += BULK_MAX) {
    const batch = rows.slice(start, start + BULK_MAX).map((row, i) => ({ _id: `imp-${sha.slice(0, 16)}-${start + i}`, ...row }));
    const outcome = await bulkWrite(ctx, { dataCollectionId: collectionId, dataItems: batch.map((data) => ({ data })) }, 'insert');
    for (const item of outcome.results) {
      const meta = item.itemMetadata;
      if (meta.success) result.created++;
      else if (meta.error?.code === 'WDE0074') result.alreadyImported++;
      else result.failed.push({ row: start + meta.originalIndex + 1, error: meta.error?.description ?? 'failed' });
    }
    onProgress({ done: Math.min(start + BULK_MAX, rows.length), total: rows.length });
  }
}
