import { useRef } from 'react';
import { useRemoveProductMedia, useUploadProductImage } from '@vitrine/react';
import type { Product } from '../lib/catalog';
import { ErrorAlert } from '../components/Alert';
import { ConfirmButton } from '../components/ConfirmButton';
import { secondaryButton } from '../components/Form';
import { IMAGE_TYPES, UPLOAD_HINT, uploadErrorText } from '../catalog/ImageDropZone';

/** The product's images: upload one (added to the product), remove one. */
export function ProductMedia({ product }: { product: Product }) {
  const input = useRef<HTMLInputElement>(null);
  const items = product.media.items;
  const add = useUploadProductImage();
  const remove = useRemoveProductMedia();
  const upload = (file: File) => add.mutate({ productId: product._id, file, fileName: file.name }, {
    onSettled: () => { if (input.current) input.current.value = ''; },
  });
  return (
    <section aria-label="Images" className="mb-6 space-y-2 border-t border-slate-200 pt-4">
      <h3 className="font-medium">Images</h3>
      {items.length === 0 && <p className="text-sm text-slate-500">No images yet.</p>}
      <ul className="flex flex-wrap gap-2">
        {items.map((m) => (
          <li key={m._id} data-testid="product-media-item" className="w-24 text-xs">
            {m.image
              ? <img src={(m.thumbnail ?? m.image).url} alt={m.title} className="h-24 w-24 rounded object-cover" />
              : <span className="block h-24 w-24 rounded bg-slate-100 p-2">{m.title}</span>}
            <ConfirmButton label="Remove" ariaLabel={`Remove ${m.title}`} title="Remove image" confirmLabel="Remove image" className={`${secondaryButton} mt-1`}
              message={`Remove ${m.title || 'this image'} from ${product.name}?`} onConfirm={() => remove.mutateAsync({ productId: product._id, mediaIds: [m._id] })} />
          </li>
        ))}
      </ul>
      <label className="block text-sm">
        <span className="mb-1 block text-slate-600">Upload image</span>
        <span className="mb-1 block text-xs text-slate-600">{UPLOAD_HINT}</span>
        <input
          ref={input}
          type="file"
          accept={IMAGE_TYPES.join(',')}
          disabled={add.isPending}
          onChange={(e) => { const f = e.target.files?.[0]; if (f) upload(f); }}
          className="text-sm"
        />
      </label>
      {add.isPending && <p role="status" className="text-sm text-slate-500">Uploading…</p>}
      {add.isSuccess && <p role="status" className="text-sm text-emerald-700">Image added.</p>}
      {add.error ? <ErrorAlert error={add.error} text={uploadErrorText(add.error)} /> : <ErrorAlert error={remove.error} />}
    </section>
  );
}
