import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { BaseContext, RequestContext } from '../../http/context.js';
import type { Executor } from '../../storage/database.js';
import { ApplicationError, forbidden, notFound, violation } from '../../http/errors.js';
import { CATALOG_LIMITS } from './schema.js';
import type { DigitalFile, MediaItem, MediaType, SecureFileType } from './model.js';
import { absoluteUrl } from './present.js';
import { catalogSecretKey } from './store.js';
import { findMediaBytes, findMediaMeta, findThumbnailBytes, insertMediaFile, type StoredFileMeta } from './store-media.js';
import { decodeImage, MEDIA_LIMITS, servedInline, sniffContentType } from './media-image.js';

/**
 * Stored files (docs/catalog-media.md): uploads and data: URLs become rows of media_files, images with
 * WebP thumbnails; secure files (digital products) are served only through signed, expiring URLs.
 */

/** How long a signed download URL works. */
export const DOWNLOAD_URL_TTL_MS = 15 * 60 * 1000;
export const DOWNLOADS_PATH = '/_api/vitrine/media/v1/downloads';

export function mediaTypeOf(contentType: string): MediaType {
  if (contentType.startsWith('image/')) return 'image';
  if (contentType.startsWith('video/')) return 'video';
  if (contentType.startsWith('audio/')) return 'audio';
  if (contentType === 'application/zip' || contentType === 'application/x-zip-compressed') return 'zip';
  return 'document';
}

export function mediaPath(id: string, fileName: string): string {
  return `/media/${id}/${encodeURIComponent(fileName)}`;
}

export function thumbnailPath(id: string, fileName: string, size: number): string {
  return `${mediaPath(id, fileName)}?w=${size}`;
}

// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A file name as kept: no path, no control characters, bounded. Throws a field violation. */
export function checkFileName(name: string, field: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  if (base.trim() === '' || base === '.' || base === '..') throw violation(field, 'must name a file', 'FORMAT');
  if (CONTROL.test(base)) throw violation(field, 'must not contain control characters', 'FORMAT');
  if (base.length > MEDIA_LIMITS.fileNameLength) throw violation(field, `must be at most ${MEDIA_LIMITS.fileNameLength} characters`, 'MAX_LENGTH', { max: MEDIA_LIMITS.fileNameLength });
  return base;
}

/**
 * Stores a file. Declared image types must decode as a PNG, JPEG, WebP or GIF (400 on `field`
 * otherwise, nothing stored); every other file is stored with the type sniffed from its bytes.
 * Secure files get no thumbnails (a thumbnail would be a public copy).
 */
export async function storeFile(ctx: RequestContext, input: { bytes: Buffer; declaredType: string; fileName: string; secure: boolean }, field: string): Promise<StoredFileMeta> {
  const { bytes } = input;
  if (bytes.length === 0) throw violation(field, 'must not be empty', 'REQUIRED_FIELD');
  if (bytes.length > CATALOG_LIMITS.mediaBytes) throw violation(field, `file is larger than ${CATALOG_LIMITS.mediaBytes} bytes`, 'MAX_SIZE', { max: CATALOG_LIMITS.mediaBytes });
  const declared = input.declaredType.split(';')[0]!.trim().toLowerCase();
  let contentType = sniffContentType(bytes);
  let width = 0;
  let height = 0;
  let thumbnails: { size: number; width: number; height: number; bytes: Buffer }[] = [];
  if (declared.startsWith('image/')) {
    const image = await decodeImage(bytes);
    if (image === 'too-many-pixels') throw violation(field, `image has more than ${MEDIA_LIMITS.inputPixels} pixels`, 'MAX_SIZE', { maxPixels: MEDIA_LIMITS.inputPixels });
    if (image === 'not-an-image') throw violation(field, 'is not a PNG, JPEG, WebP or GIF image', 'FORMAT', { declaredType: declared });
    ({ contentType, width, height } = image);
    thumbnails = input.secure ? [] : image.thumbnails;
  }
  const id = randomUUID().replace(/-/g, '');
  await insertMediaFile(ctx.db, {
    id, site_id: ctx.site.id, file_name: input.fileName, content_type: contentType, width, height, bytes, secure: input.secure ? 1 : 0,
  }, thumbnails, new Date().toISOString());
  return {
    id, siteId: ctx.site.id, fileName: input.fileName, contentType, width, height, size: bytes.length, secure: input.secure,
    thumbnails: thumbnails.map((t) => ({ size: t.size, width: t.width, height: t.height })),
  };
}

export interface UploadedFile {
  id: string;
  fileName: string;
  mediaType: MediaType;
  contentType: string;
  size: number;
  secure: boolean;
  /** Absent for secure files (ask for a download URL). */
  url?: string;
  width?: number;
  height?: number;
  thumbnails?: { width: number; height: number; url: string }[];
}

export function presentFile(file: StoredFileMeta, origin: string): UploadedFile {
  const mediaType = mediaTypeOf(file.contentType);
  return {
    id: file.id, fileName: file.fileName, mediaType, contentType: file.contentType, size: file.size, secure: file.secure,
    ...(file.secure ? {} : { url: absoluteUrl(mediaPath(file.id, file.fileName), origin) }),
    ...(mediaType === 'image' ? { width: file.width, height: file.height } : {}),
    ...(file.thumbnails.length ? { thumbnails: file.thumbnails.map((t) => ({ width: t.width, height: t.height, url: absoluteUrl(thumbnailPath(file.id, file.fileName, t.size), origin) })) } : {}),
  };
}

export async function uploadFile(ctx: RequestContext, input: { body: Uint8Array; contentType: string; fileName: string; secure?: boolean | undefined }): Promise<{ file: UploadedFile }> {
  const fileName = checkFileName(input.fileName, 'fileName');
  const stored = await storeFile(ctx, { bytes: Buffer.from(input.body), declaredType: input.contentType, fileName, secure: input.secure ?? false }, '$body');
  return { file: presentFile(stored, ctx.origin) };
}

export async function getSiteFile(ctx: RequestContext, id: string): Promise<StoredFileMeta | undefined> {
  return findMediaMeta(ctx.db, id, ctx.site.id);
}

/** The V1 media item of a stored file: real width/height, the smallest thumbnail as `thumbnail`. */
export function mediaItemOf(file: StoredFileMeta): MediaItem {
  const mediaType = mediaTypeOf(file.contentType);
  const picture = { url: mediaPath(file.id, file.fileName), width: file.width, height: file.height };
  const small = file.thumbnails[0];
  const thumbnail = small ? { url: thumbnailPath(file.id, file.fileName, small.size), width: small.width, height: small.height } : picture;
  if (mediaType === 'video') return { id: file.id, title: file.fileName, mediaType, video: { files: [picture] }, thumbnail: picture };
  if (mediaType === 'image') return { id: file.id, title: file.fileName, mediaType, image: picture, thumbnail };
  return { id: file.id, title: file.fileName, mediaType, url: picture.url };
}

function headersFor(contentType: string, fileName: string, inline: boolean): Record<string, string> {
  return {
    'content-type': contentType,
    'x-content-type-options': 'nosniff',
    // Even a file opened directly runs no script and loads nothing in our origin.
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    'content-disposition': `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(fileName)}`,
  };
}

/**
 * The public `/media/:id/:name` answer: the file, or with `w` one of its thumbnails (the original when
 * it has none, e.g. a generated SVG). Secure files are 404 here, exactly like missing ones.
 */
export async function serveMedia(ctx: BaseContext, input: { mediaId: string; w?: number | undefined }): Promise<Response> {
  if (input.w !== undefined && !(MEDIA_LIMITS.thumbnailWidths as readonly number[]).includes(input.w)) {
    throw violation('w', `must be one of ${MEDIA_LIMITS.thumbnailWidths.join(', ')}`, 'FORMAT', { allowed: MEDIA_LIMITS.thumbnailWidths });
  }
  const file = await findMediaBytes(ctx.db, input.mediaId);
  if (!file || file.secure) throw notFound('MEDIA_NOT_FOUND', 'No such media file');
  const cache = { 'cache-control': 'public, max-age=31536000, immutable' };
  if (input.w !== undefined) {
    const thumb = await findThumbnailBytes(ctx.db, input.mediaId, input.w);
    if (thumb) return new Response(new Uint8Array(thumb), { headers: { ...headersFor('image/webp', file.fileName.replace(/\.[^.]*$/, '') + '.webp', true), ...cache } });
  }
  return new Response(new Uint8Array(file.bytes), { headers: { ...headersFor(file.contentType, file.fileName, servedInline(file.contentType)), ...cache } });
}

// ---------------------------------------------------------------------------------------------
// Signed download URLs (secure files): HMAC-SHA256 over `<id>.<expires>` with the key in catalog_secrets.

function sign(key: Buffer, id: string, expires: number): string {
  return createHmac('sha256', key).update(`${id}.${expires}`).digest('base64url');
}

/** A URL that downloads a file of this site until it expires (DOWNLOAD_URL_TTL_MS). */
export async function createDownloadUrl(ctx: RequestContext, id: string): Promise<{ url: string; expiresAt: string }> {
  const file = await findMediaMeta(ctx.db, id, ctx.site.id);
  if (!file) throw notFound('MEDIA_NOT_FOUND', 'No such media file');
  const expires = Date.now() + DOWNLOAD_URL_TTL_MS;
  const signature = sign(await catalogSecretKey(ctx.db, 'media-download'), id, expires);
  const path = `${DOWNLOADS_PATH}/${id}/${encodeURIComponent(file.fileName)}?expires=${expires}&signature=${signature}`;
  return { url: absoluteUrl(path, ctx.origin), expiresAt: new Date(expires).toISOString() };
}

/** The bytes behind a signed URL, always as an attachment; a bad or expired signature is a 403. */
export async function serveSignedDownload(ctx: BaseContext, input: { mediaId: string; expires: number; signature: string }): Promise<Response> {
  const expected = Buffer.from(sign(await catalogSecretKey(ctx.db, 'media-download'), input.mediaId, input.expires));
  const given = Buffer.from(input.signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw forbidden('DOWNLOAD_URL_INVALID', 'This download link is not valid');
  if (input.expires < Date.now()) throw new ApplicationError(403, 'DOWNLOAD_URL_EXPIRED', 'This download link has expired; ask for a new one');
  return fileDownload(ctx.db, input.mediaId);
}

/** A stored file's bytes as a download: an attachment, never cached. The caller has checked the right to it. */
export async function fileDownload(db: Executor, id: string): Promise<Response> {
  const file = await findMediaBytes(db, id);
  if (!file) throw notFound('MEDIA_NOT_FOUND', 'No such media file');
  return new Response(new Uint8Array(file.bytes), { headers: { ...headersFor(file.contentType, file.fileName, false), 'cache-control': 'private, no-store' } });
}

// ---------------------------------------------------------------------------------------------
// V3 digital files


export function secureFileTypeOf(contentType: string): SecureFileType {
  switch (mediaTypeOf(contentType)) {
    case 'image': return 'SECURE_PICTURE';
    case 'video': return 'SECURE_VIDEO';
    case 'audio': return 'SECURE_MUSIC';
    case 'zip': return 'SECURE_ARCHIVE';
    default: return /^application\/(vnd\.rar|x-7z-compressed|gzip)$/.test(contentType) ? 'SECURE_ARCHIVE' : 'SECURE_DOCUMENT';
  }
}

/**
 * `digitalProperties.digitalFile` of a V3 variant from an uploaded secure file of this site
 * (SecuredMedia: fileSize is decimal text). Unknown or public files are a violation on `field`.
 */
export async function resolveDigitalFile(ctx: RequestContext, input: { id: string }, field = 'digitalFile.id'): Promise<DigitalFile> {
  const file = /^[a-f0-9]{32}$/.test(input.id) ? await findMediaMeta(ctx.db, input.id, ctx.site.id) : undefined;
  if (!file) throw violation(field, `media ${input.id} does not exist`, 'FORMAT', { id: input.id });
  if (!file.secure) throw violation(field, 'must be a secure file (upload it with secure=true)', 'FORMAT', { id: input.id });
  return { id: file.id, fileName: file.fileName, fileSize: String(file.size), fileType: secureFileTypeOf(file.contentType) };
}
