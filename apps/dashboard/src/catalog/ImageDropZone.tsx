import { useRef, useState, type DragEvent } from 'react';
import { VitrineError } from '@vitrine/sdk';
import { MEDIA_BYTES_MAX, PRODUCT_LIMITS } from '../lib/catalog';
import { errorText } from '../session';

/** Image types a product accepts (what the server's media store takes for product images). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];
/** What the upload control says it takes. */
export const UPLOAD_HINT = `PNG, JPEG, WebP or GIF, at most ${MEDIA_BYTES_MAX / 1024 / 1024} MB each`;
/** The drag payload type of a reordered image (so a dragged image is never taken for a dropped file). */
export const MEDIA_DRAG_TYPE = 'application/x-vitrine-media-index';

/**
 * The images of a drop or a file choice that may be added, or why none may: other file types are
 * skipped (and said so), and the product's image limit is kept.
 */
export function acceptImages(files: File[], present: number): { images: File[]; refused?: string } {
  const typed = files.filter((f) => IMAGE_TYPES.includes(f.type));
  const images = typed.filter((f) => f.size <= MEDIA_BYTES_MAX);
  if (present + images.length > PRODUCT_LIMITS.media) return { images: [], refused: `A product has at most ${PRODUCT_LIMITS.media} images.` };
  const reasons = [
    typed.length < files.length ? `${files.length - typed.length} file(s) skipped: only PNG, JPEG, WebP and GIF images can be added.` : '',
    images.length < typed.length ? `Too large (at most ${MEDIA_BYTES_MAX / 1024 / 1024} MB): ${typed.filter((f) => f.size > MEDIA_BYTES_MAX).map((f) => f.name).join(', ')}.` : '',
  ].filter(Boolean);
  return reasons.length > 0 ? { images, refused: reasons.join(' ') } : { images };
}

/** A refused upload in the owner's words: the file, not the request body, is what is wrong. */
export function uploadErrorText(error: unknown): string {
  if (error instanceof VitrineError && error.code === 'PAYLOAD_TOO_LARGE') return `The file is too large: images can be at most ${MEDIA_BYTES_MAX / 1024 / 1024} MB.`;
  return errorText(error, (v) => (v.field === '$body' ? `The file ${v.description}.` : undefined));
}

/** A dashed zone that takes dropped files, with a labelled file input for the keyboard and for choosing. */
export function ImageDropZone({ disabled, onFiles }: { disabled: boolean; onFiles: (files: File[]) => Promise<void> }) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const take = (files: File[]) => { if (files.length) void onFiles(files).finally(() => { if (input.current) input.current.value = ''; }); };
  const onDrop = (e: DragEvent) => { e.preventDefault(); setOver(false); take([...e.dataTransfer.files]); };
  return (
    <div
      data-testid="media-drop-zone"
      onDragOver={(e) => { if (e.dataTransfer.types.includes('Files')) { e.preventDefault(); setOver(true); } }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      className={`mt-3 rounded border-2 border-dashed p-4 text-sm ${over ? 'border-slate-900 bg-slate-50' : 'border-slate-300'}`}
    >
      <label className="block">
        <span className="mb-1 block text-slate-700">Upload images (or drop them here)</span>
        <span className="mb-1 block text-xs text-slate-600">{UPLOAD_HINT}</span>
        <input ref={input} type="file" multiple accept={IMAGE_TYPES.join(',')} disabled={disabled} onChange={(e) => take([...(e.target.files ?? [])])} className="text-sm" />
      </label>
    </div>
  );
}
