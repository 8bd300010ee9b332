import type { Sharp, SharpOptions } from 'sharp';

/**
 * Image decoding and thumbnails with sharp, loaded on the first image only (a server that never sees
 * an image never loads libvips), and content sniffing of everything else: the type a file is stored
 * and served with comes from its bytes, never from what the uploader declared.
 */

export const MEDIA_LIMITS = {
  /** Thumbnail size classes, in pixels of width; each is WebP and never wider than the original. */
  thumbnailWidths: [200, 400, 800] as const,
  /** Most decoded pixels of an input image (decompression bombs): 50 megapixels. */
  inputPixels: 50_000_000,
  /** WebP quality of thumbnails. */
  thumbnailQuality: 80,
  /** Longest file name kept. */
  fileNameLength: 200,
} as const;

export type ThumbnailSize = typeof MEDIA_LIMITS.thumbnailWidths[number];

/** Raster formats we accept as images and serve inline (sharp format name -> content type). */
const RASTER: Record<string, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif' };

type SharpFactory = (input: Buffer, options?: SharpOptions) => Sharp;
let loading: Promise<SharpFactory> | undefined;

function loadSharp(): Promise<SharpFactory> {
  loading ??= import('sharp').then((m) => m.default as unknown as SharpFactory);
  return loading;
}

export interface DecodedImage {
  contentType: string;
  width: number;
  height: number;
  thumbnails: { size: number; width: number; height: number; bytes: Buffer }[];
}

/**
 * Decodes `bytes` as a PNG, JPEG, WebP or GIF (first frame) within MEDIA_LIMITS.inputPixels and makes
 * every thumbnail class; a reason when the bytes are not such an image (SVG is not one: it can carry
 * script) or have too many pixels. Width and height are as displayed (EXIF orientation applied).
 */
export async function decodeImage(bytes: Buffer): Promise<DecodedImage | 'not-an-image' | 'too-many-pixels'> {
  const sharp = await loadSharp();
  const options: SharpOptions = { limitInputPixels: MEDIA_LIMITS.inputPixels, failOn: 'error' };
  try {
    const meta = await sharp(bytes, options).metadata();
    const contentType = meta.format ? RASTER[meta.format] : undefined;
    if (!contentType) return 'not-an-image';
    const width = meta.autoOrient.width;
    const height = meta.autoOrient.height;
    if (width * height > MEDIA_LIMITS.inputPixels) return 'too-many-pixels';
    const thumbnails: DecodedImage['thumbnails'] = [];
    for (const size of MEDIA_LIMITS.thumbnailWidths) {
      // Decoding the whole image here is also the proof that it is one (truncated data fails).
      const out = await sharp(bytes, options).autoOrient().resize({ width: size, withoutEnlargement: true })
        .webp({ quality: MEDIA_LIMITS.thumbnailQuality }).toBuffer({ resolveWithObject: true });
      thumbnails.push({ size, width: out.info.width, height: out.info.height, bytes: out.data });
    }
    return { contentType, width, height, thumbnails };
  } catch (err) {
    // Not an image or corrupt; libvips also refuses frames over the pixel bound (animated GIFs).
    return err instanceof Error && /pixel limit/.test(err.message) ? 'too-many-pixels' : 'not-an-image';
  }
}

/** What a non-image file is, by its first bytes; `application/octet-stream` when unknown. */
export function sniffContentType(bytes: Buffer): string {
  const starts = (sig: string | number[], at = 0) => {
    const b = typeof sig === 'string' ? Buffer.from(sig, 'latin1') : Buffer.from(sig);
    return bytes.length >= at + b.length && bytes.subarray(at, at + b.length).equals(b);
  };
  if (starts('%PDF')) return 'application/pdf';
  if (starts([0x50, 0x4b, 0x03, 0x04]) || starts([0x50, 0x4b, 0x05, 0x06])) return 'application/zip';
  if (starts('Rar!\x1a\x07')) return 'application/vnd.rar';
  if (starts([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return 'application/x-7z-compressed';
  if (starts([0x1f, 0x8b])) return 'application/gzip';
  if (starts('ftyp', 4)) return starts('M4A ', 8) ? 'audio/mp4' : 'video/mp4';
  if (starts([0x1a, 0x45, 0xdf, 0xa3])) return 'video/webm';
  if (starts('ID3') || (bytes.length > 1 && bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0)) return 'audio/mpeg';
  if (starts('OggS')) return 'audio/ogg';
  if (starts('fLaC')) return 'audio/flac';
  if (starts('RIFF') && starts('WAVE', 8)) return 'audio/wav';
  return 'application/octet-stream';
}

/** Types served inline (shown by the browser as media); everything else is an attachment. */
export function servedInline(contentType: string): boolean {
  return Object.values(RASTER).includes(contentType) || contentType === 'image/svg+xml' || contentType.startsWith('video/') || contentType.startsWith('audio/');
}
