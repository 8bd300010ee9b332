/** Shapes shared by several modules of the wire contract. */

/** A timestamp on the wire: ISO-8601 text (`2026-01-31T12:00:00.000Z`). The SDK turns it into a Date. */
export type IsoDate = string;

/** Offset paging metadata of V1-style queries. */
export interface OffsetPagingMetadata { count: number; offset?: number; total?: number; tooManyToCount?: boolean; cursors?: Cursors }

/** Cursors of cursor-paged queries; `null` at either end. */
export interface Cursors { next?: string | null; prev?: string | null }

/** Paging metadata of cursor-paged queries (V3 catalog, data items, members). */
export interface CursorPagingMetadata { count: number; offset?: number; total?: number; tooManyToCount?: boolean; cursors: Cursors; hasNext: boolean }

export interface SortItem { fieldName: string; order?: 'ASC' | 'DESC' }

/** One item of a bulk call's results. */
export interface BulkItemMetadata { id?: string; originalIndex: number; success: boolean; error?: { code: string; description: string; data: Record<string, unknown> } }
export interface BulkActionMetadata { totalSuccesses: number; totalFailures: number; undetailedFailures: number }
