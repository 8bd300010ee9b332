import { sql } from 'kysely';
import type { Executor } from '../../storage/database.js';
import type { Bool01 } from '../../storage/schema.js';

/** SQL of uploads, thumbnails and secure files (media.ts / media-files.ts). */

interface MediaFileRow {
  id: string;
  site_id: string;
  file_name: string;
  content_type: string;
  width: number;
  height: number;
  bytes: Buffer;
  created_date: string;
  /** catalog/0008: a digital file, never served by the public media route. */
  secure: Bool01;
}

interface ThumbnailRow {
  media_id: string;
  size: number;
  width: number;
  height: number;
  bytes: Buffer;
}

declare module '../../storage/schema.js' {
  interface Database {
    media_files: MediaFileRow;
    media_thumbnails: ThumbnailRow;
  }
}

export interface StoredFileMeta { id: string; siteId: string; fileName: string; contentType: string; width: number; height: number; size: number; secure: boolean; thumbnails: { size: number; width: number; height: number }[] }

export async function insertMediaFile(db: Executor, row: Omit<MediaFileRow, 'created_date'>, thumbnails: Omit<ThumbnailRow, 'media_id'>[], now: string): Promise<void> {
  await db.insertInto('media_files').values({ ...row, created_date: now }).execute();
  if (thumbnails.length) await db.insertInto('media_thumbnails').values(thumbnails.map((t) => ({ ...t, media_id: row.id }))).execute();
}

/** A file's metadata (no bytes); `siteId` limits it to one site's files when given. */
export async function findMediaMeta(db: Executor, id: string, siteId?: string): Promise<StoredFileMeta | undefined> {
  let q = db.selectFrom('media_files')
    .select(['id', 'site_id', 'file_name', 'content_type', 'width', 'height', 'secure', sql<number>`length(bytes)`.as('size')])
    .where('id', '=', id);
  if (siteId !== undefined) q = q.where('site_id', '=', siteId);
  const row = await q.executeTakeFirst();
  if (!row) return undefined;
  const thumbs = await db.selectFrom('media_thumbnails').select(['size', 'width', 'height']).where('media_id', '=', id).orderBy('size').execute();
  return {
    id: row.id, siteId: row.site_id, fileName: row.file_name, contentType: row.content_type, width: row.width, height: row.height,
    size: Number(row.size), secure: Number(row.secure) === 1, thumbnails: thumbs.map((t) => ({ size: t.size, width: t.width, height: t.height })),
  };
}

export async function findMediaBytes(db: Executor, id: string): Promise<{ contentType: string; fileName: string; secure: boolean; bytes: Buffer } | undefined> {
  const row = await db.selectFrom('media_files').select(['content_type', 'file_name', 'secure', 'bytes']).where('id', '=', id).executeTakeFirst();
  return row && { contentType: row.content_type, fileName: row.file_name, secure: Number(row.secure) === 1, bytes: row.bytes };
}

/** A thumbnail's bytes, only of a public (not secure) file. */
export async function findThumbnailBytes(db: Executor, id: string, size: number): Promise<Buffer | undefined> {
  const row = await db.selectFrom('media_thumbnails')
    .innerJoin('media_files', 'media_files.id', 'media_thumbnails.media_id')
    .select('media_thumbnails.bytes')
    .where('media_thumbnails.media_id', '=', id).where('media_thumbnails.size', '=', size).where('media_files.secure', '=', 0)
    .executeTakeFirst();
  return row?.bytes;
}

export async function countSiteMedia(db: Executor, siteId: string): Promise<number> {
  const row = await db.selectFrom('media_files').select((eb) => eb.fn.countAll<number>().as('n')).where('site_id', '=', siteId).executeTakeFirstOrThrow();
  return Number(row.n);
}
