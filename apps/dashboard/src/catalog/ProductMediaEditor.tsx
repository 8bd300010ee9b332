import { useState } from 'react';
import { useRemoveProductMedia, useReorderProductMedia, useUploadProductImage } from '@vitrine/react';
import { moveItem, type Product } from '../lib/catalog';
import { ErrorAlert } from '../components/Alert';
import { ConfirmButton } from '../components/ConfirmButton';
import { secondaryButton } from '../components/Form';
import { EditorSection } from './Section';
import { ImageDropZone, MEDIA_DRAG_TYPE, acceptImages, uploadErrorText } from './ImageDropZone';

/**
 * The product's images: drop files (or choose them) to upload them one after another with progress,
 * drag an image or use its arrow buttons to reorder (the first is the main image), remove after
 * confirmation.
 */
export function ProductMediaEditor({ product }: { product: Product }) {
  const items = product.media.items;
  const upload = useUploadProductImage();
  const reorder = useReorderProductMedia();
  const remove = useRemoveProductMedia();
  const [progress, setProgress] = useState<{ done: number; total: number }>();
  const [refused, setRefused] = useState<string>();

  const uploadAll = async (files: File[]) => {
    upload.reset();
    const { images, refused: why } = acceptImages(files, items.length);
    setRefused(why);
    if (images.length === 0) return;
    setProgress({ done: 0, total: images.length });
    try {
      for (const [i, file] of images.entries()) {
        await upload.mutateAsync({ productId: product._id, file, fileName: file.name });
        setProgress({ done: i + 1, total: images.length });
      }
    } catch {
      // The mutation keeps the error; it is shown below and the remaining files are not sent.
    }
  };
  const move = (from: number, to: number) => reorder.mutate({ productId: product._id, current: items.map((m) => m._id), order: moveItem(items, from, to).map((m) => m._id) });

  const busy = upload.isPending || reorder.isPending;
  return (
    <EditorSection id="media-heading" title="Images">
      {items.length === 0 && <p className="mb-2 text-sm text-slate-600">No images yet.</p>}
      <ol className="mb-3 flex flex-wrap gap-3" aria-label="Image order">
        {items.map((m, i) => (
          <li
            key={m._id} data-testid="product-media-item" className="w-40 text-xs" draggable={!busy}
            onDragStart={(e) => e.dataTransfer.setData(MEDIA_DRAG_TYPE, String(i))}
            onDragOver={(e) => { if (e.dataTransfer.types.includes(MEDIA_DRAG_TYPE)) e.preventDefault(); }}
            onDrop={(e) => { const from = e.dataTransfer.getData(MEDIA_DRAG_TYPE); if (from !== '') { e.preventDefault(); e.stopPropagation(); move(Number(from), i); } }}
          >
            {m.image
              ? <img src={(m.thumbnail ?? m.image).url} alt={m.title} className="h-32 w-40 rounded object-cover" />
              : <span className="block h-32 w-40 rounded bg-slate-100 p-2">{m.title}</span>}
            <span className="mt-1 block truncate" title={m.title}>{i === 0 ? 'Main: ' : `${i + 1}. `}{m.title}</span>
            <span className="mt-1 flex flex-wrap gap-1">
              <button type="button" className={secondaryButton} disabled={busy || i === 0} aria-label={`Move ${m.title} earlier`} onClick={() => move(i, i - 1)}>←</button>
              <button type="button" className={secondaryButton} disabled={busy || i === items.length - 1} aria-label={`Move ${m.title} later`} onClick={() => move(i, i + 1)}>→</button>
              <ConfirmButton label="Remove" ariaLabel={`Remove ${m.title}`} title="Remove image" confirmLabel="Remove image" className={secondaryButton}
                message={`Remove ${m.title || 'this image'} from ${product.name}?`} onConfirm={() => remove.mutateAsync({ productId: product._id, mediaIds: [m._id] })} />
            </span>
          </li>
        ))}
      </ol>
      <ImageDropZone disabled={busy} onFiles={uploadAll} />
      {progress && progress.done < progress.total && !upload.error && (
        <p role="status" className="mt-2 text-sm text-slate-700">
          Uploading {progress.done + 1} of {progress.total}… <progress max={progress.total} value={progress.done} aria-label="Upload progress" className="align-middle" />
        </p>
      )}
      {progress && progress.done === progress.total && progress.total > 0 && <p role="status" className="mt-2 text-sm text-emerald-800">{progress.total === 1 ? 'Image added.' : `${progress.total} images added.`}</p>}
      {reorder.isPending && <p role="status" className="mt-2 text-sm text-slate-700">Saving the order…</p>}
      {refused && <p role="alert" className="mt-2 text-sm text-rose-800">{refused}</p>}
      {upload.error ? <ErrorAlert error={upload.error} text={uploadErrorText(upload.error)} /> : <ErrorAlert error={reorder.error ?? remove.error} />}
    </EditorSection>
  );
}
