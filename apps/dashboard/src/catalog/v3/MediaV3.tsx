import { useState } from 'react';
import { useUpdateProductV3, useUploadMediaFile } from '@vitrine/react';
import { moveItem, type ProductV3 } from '../../lib/catalog';
import { ErrorAlert, Notice } from '../../components/Alert';
import { ConfirmButton } from '../../components/ConfirmButton';
import { primaryButton, secondaryButton } from '../../components/Form';
import { EditorSection } from '../Section';
import { ImageDropZone, MEDIA_DRAG_TYPE, acceptImages, uploadErrorText } from '../ImageDropZone';
/** Longest alt text the catalog stores. */
const ALT_TEXT_MAX = 1000;

type MediaItem = ProductV3['media']['itemsInfo']['items'][number];

/**
 * A V3 product's media: drop or choose images (uploaded one by one with progress, then added in one
 * product write), drag or arrow-button reordering (the first is the main image), alt text per image,
 * removal after confirmation. Every change is one product write with the list in its new order.
 */
export function MediaV3({ product }: { product: ProductV3 }) {
  const items = product.media.itemsInfo.items;
  const upload = useUploadMediaFile();
  const save = useUpdateProductV3();
  const [alts, setAlts] = useState<Record<string, string>>({});
  const [progress, setProgress] = useState<{ done: number; total: number }>();
  const [refused, setRefused] = useState<string>();
  const altOf = (m: MediaItem) => alts[m._id] ?? m.altText ?? '';
  const write = (list: readonly { _id: string; altText?: string | null }[]) =>
    save.mutateAsync({ _id: product._id, product: { revision: product.revision, media: { itemsInfo: { items: list.map((m) => ({ _id: m._id, altText: m.altText ?? null })) } } } });
  const current = () => items.map((m) => ({ _id: m._id, altText: altOf(m) || null }));

  const uploadAll = async (files: File[]) => {
    upload.reset(); save.reset();
    const { images, refused: why } = acceptImages(files, items.length);
    setRefused(why);
    if (images.length === 0) return;
    setProgress({ done: 0, total: images.length });
    try {
      const stored: string[] = [];
      for (const [i, file] of images.entries()) {
        stored.push((await upload.mutateAsync({ file, fileName: file.name })).id);
        setProgress({ done: i + 1, total: images.length });
      }
      await write([...current(), ...stored.map((_id) => ({ _id }))]);
    } catch {
      // The failing mutation keeps its error; it is shown below.
    }
  };
  const move = (from: number, to: number) => { void write(moveItem(current(), from, to)).catch(() => undefined); };
  const busy = upload.isPending || save.isPending;
  return (
    <EditorSection id="media-heading" title="Images">
      {items.length === 0 && <p className="mb-2 text-sm text-slate-600">No images yet.</p>}
      <form aria-label="Image details" onSubmit={(e) => { e.preventDefault(); save.reset(); void write(current()).then(() => setAlts({})).catch(() => undefined); }}>
        <ol className="mb-3 flex flex-wrap gap-3" aria-label="Image order">
          {items.map((m, i) => {
            const name = m.displayName || m.image?.filename || `image ${i + 1}`;
            return (
              <li key={m._id} data-testid="product-media-item" className="w-44 text-xs" draggable={!busy}
                onDragStart={(e) => e.dataTransfer.setData(MEDIA_DRAG_TYPE, String(i))}
                onDragOver={(e) => { if (e.dataTransfer.types.includes(MEDIA_DRAG_TYPE)) e.preventDefault(); }}
                onDrop={(e) => { const from = e.dataTransfer.getData(MEDIA_DRAG_TYPE); if (from !== '') { e.preventDefault(); move(Number(from), i); } }}>
                {m.url ? <img src={m.url} alt={m.altText || name} className="h-32 w-44 rounded object-cover" /> : <span className="block h-32 w-44 rounded bg-slate-100 p-2">{name}</span>}
                <span className="mt-1 block truncate" title={name}>{i === 0 ? 'Main: ' : `${i + 1}. `}{name}</span>
                <label className="mt-1 block">Alt text of {name}
                  <input value={altOf(m)} maxLength={ALT_TEXT_MAX} onChange={(e) => setAlts((a) => ({ ...a, [m._id]: e.target.value }))} className="mt-0.5 block w-full rounded border border-slate-300 px-2 py-1" />
                </label>
                <span className="mt-1 flex flex-wrap gap-1">
                  <button type="button" className={secondaryButton} disabled={busy || i === 0} aria-label={`Move ${name} earlier`} onClick={() => move(i, i - 1)}>←</button>
                  <button type="button" className={secondaryButton} disabled={busy || i === items.length - 1} aria-label={`Move ${name} later`} onClick={() => move(i, i + 1)}>→</button>
                  <ConfirmButton label="Remove" ariaLabel={`Remove ${name}`} title="Remove image" confirmLabel="Remove image" className={secondaryButton}
                    message={`Remove ${name} from ${product.name}?`} onConfirm={() => write(current().filter((x) => x._id !== m._id))} />
                </span>
              </li>
            );
          })}
        </ol>
        {items.length > 0 && <button disabled={busy} className={primaryButton}>Save alt texts</button>}
      </form>
      <ImageDropZone disabled={busy} onFiles={uploadAll} />
      {progress && upload.isPending && (
        <p role="status" className="mt-2 text-sm text-slate-700">Uploading {progress.done + 1} of {progress.total}… <progress max={progress.total} value={progress.done} aria-label="Upload progress" className="align-middle" /></p>
      )}
      {save.isPending && <p role="status" className="mt-2 text-sm text-slate-700">Saving…</p>}
      {save.isSuccess && <Notice>Images saved.</Notice>}
      {refused && <p role="alert" className="mt-2 text-sm text-rose-800">{refused}</p>}
      {upload.error ? <ErrorAlert error={upload.error} text={uploadErrorText(upload.error)} /> : <ErrorAlert error={save.error} />}
    </EditorSection>
  );
}
