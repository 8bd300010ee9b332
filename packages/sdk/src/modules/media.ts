/**
 * `@vitrine/sdk/media`: Vitrine's upload extension (the platform's media manager is not in the
 * contract) and thumbnail URLs of stored images. Uploads need an elevated client (API key);
 * `thumbnailUrl` / `thumbnailSrcSet` are plain functions usable in any browser code.
 */
import { defineMethod } from '../define.js';
import { errorFromResponse, systemError } from '../errors.js';

/** Thumbnail width classes the server stores for uploaded images (server MEDIA_LIMITS.thumbnailWidths). */
export const THUMBNAIL_WIDTHS = [200, 400, 800] as const;

export interface UploadedFile {
  id: string;
  fileName: string;
  mediaType: 'image' | 'video' | 'audio' | 'document' | 'zip';
  contentType: string;
  size: number;
  secure: boolean;
  /** Absent for secure files: ask for a download URL. */
  url?: string;
  width?: number;
  height?: number;
  thumbnails?: { width: number; height: number; url: string }[];
}

export interface UploadOptions {
  /** Defaults to the Blob's type. */
  contentType?: string;
  /** A digital file: never public, downloadable only through `getDownloadUrl`. */
  secure?: boolean;
}

/** `media.uploadFile(blob, 'poster.png')` -> the stored file; its `id` is a `mediaId` for product media writes. */
export const uploadFile = defineMethod(async (client, data: Blob | ArrayBuffer | Uint8Array, fileName: string, options: UploadOptions = {}): Promise<UploadedFile> => {
  const query = new URLSearchParams({ fileName, ...(options.secure ? { secure: 'true' } : {}) });
  const contentType = options.contentType ?? (data instanceof Blob ? data.type : '') ?? '';
  let res: Response;
  try {
    res = await client.fetchWithAuth(`/_api/vitrine/media/v1/files?${query}`, { method: 'POST', headers: { 'content-type': contentType || 'application/octet-stream' }, body: data as BodyInit });
  } catch (err) {
    throw systemError(err);
  }
  const text = await res.text();
  let body: unknown = {};
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    body = { message: text };
  }
  if (!res.ok) throw errorFromResponse(res.status, res.statusText, res.headers.get('x-wix-request-id') ?? undefined, body);
  return (body as { file: UploadedFile }).file;
});

/** `media.getDownloadUrl(id)` -> a signed URL that downloads the file until `expiresAt` (elevated). */
export const getDownloadUrl = defineMethod((client, id: string) =>
  client.request<{ url: string; expiresAt: string }>({ method: 'POST', path: `/_api/vitrine/media/v1/files/${encodeURIComponent(id)}/download-url`, payload: {} }));

function isServerMedia(url: string): boolean {
  try {
    return /^\/media\/[a-f0-9]{32}\/[^/]+$/.test(new URL(url, 'http://x').pathname);
  } catch {
    return false;
  }
}

/**
 * The URL of the smallest stored thumbnail at least `width` pixels wide (the largest class when none
 * is), for a `/media/...` image URL of this server; other URLs are returned unchanged.
 */
export function thumbnailUrl(url: string, width: number): string {
  if (!isServerMedia(url)) return url;
  const size = THUMBNAIL_WIDTHS.find((w) => w >= width) ?? THUMBNAIL_WIDTHS[THUMBNAIL_WIDTHS.length - 1];
  const u = new URL(url, 'http://x');
  u.searchParams.set('w', String(size));
  return url.startsWith('/') ? `${u.pathname}${u.search}` : u.toString();
}

/**
 * A `srcset` over the thumbnail classes of a `/media/...` image (descriptors never above the image's
 * real width, as thumbnails are never upscaled); undefined for other URLs.
 */
export function thumbnailSrcSet(image: { url: string; width?: number }): string | undefined {
  if (!isServerMedia(image.url)) return undefined;
  const real = image.width && image.width > 0 ? image.width : Infinity;
  const seen = new Set<number>();
  const parts: string[] = [];
  for (const w of THUMBNAIL_WIDTHS) {
    const d = Math.min(w, real);
    if (seen.has(d)) continue;
    seen.add(d);
    parts.push(`${thumbnailUrl(image.url, w)} ${d}w`);
  }
  return parts.join(', ');
}

/**
 * `<img>` attributes for a product media item (`media.mainMedia` of a V1 product): thumbnail URL and
 * srcset when the server made thumbnails for it (its `thumbnail.url` names a size class), else the
 * image itself (external URLs, generated SVG placeholders).
 */
export function imageAttributes(item: { image?: { url: string; width?: number }; thumbnail?: { url: string } } | undefined, width: number): { src: string; srcSet?: string } | undefined {
  if (!item?.image) return undefined;
  const thumb = item.thumbnail?.url;
  const sized = thumb !== undefined && isServerMedia(thumb) && new URL(thumb, 'http://x').searchParams.has('w');
  if (!sized) return { src: item.image.url };
  const srcSet = thumbnailSrcSet(item.image);
  return { src: thumbnailUrl(item.image.url, width), ...(srcSet ? { srcSet } : {}) };
}
