import { useRef } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../api/client';
import type { Product } from '../api/catalog';
import { ApiError, loadSession } from '../session';
import { ErrorAlert } from '../components/Alert';
import { secondaryButton } from '../components/Form';

/** Media items as the V1 product answers them (thumbnail: the server's smallest WebP size). */
interface MediaItem { id: string; title: string; mediaType: string; image?: { url: string; width: number; height: number }; thumbnail?: { url: string; width: number; height: number } }

/** Upload route of the server (raw bytes, ?fileName=); answers `{ file: { id, ... } }`. */
const UPLOAD_PATH = '/_api/vitrine/media/v1/files';

/** Sends a picked file's bytes to the upload route with the signed-in owner's key. */
async function uploadImage(file: File): Promise<string> {
  const session = loadSession();
  if (!session) throw new Error('Not signed in');
  const res = await fetch(`${UPLOAD_PATH}?fileName=${encodeURIComponent(file.name)}`, {
    method: 'POST',
    headers: { authorization: session.apiKey, 'wix-site-id': session.siteId, 'content-type': file.type || 'application/octet-stream' },
    body: file,
  });
  const json: unknown = await res.json().catch(() => ({}));
  const stored = (json as { file?: { id?: string } }).file?.id;
  if (!res.ok || !stored) throw new ApiError(res.status, json as ConstructorParameters<typeof ApiError>[1]);
  return stored;
}

/** The product's images: upload one (added to the product), remove one. */
export function ProductMedia({ product }: { product: Product }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const items = ((product.media as { items?: MediaItem[] } | undefined)?.items ?? []);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['product', product.id] });
    await queryClient.invalidateQueries({ queryKey: ['products'] });
  };
  const add = useMutation({
    mutationFn: async (file: File) => {
      const mediaId = await uploadImage(file);
      await api(`/stores/v1/products/${encodeURIComponent(product.id)}/media`, { body: { media: [{ mediaId }] } });
    },
    onSuccess: refresh,
    onSettled: () => { if (input.current) input.current.value = ''; },
  });
  const remove = useMutation({
    mutationFn: (mediaId: string) => api(`/stores/v1/products/${encodeURIComponent(product.id)}/media/delete`, { body: { mediaIds: [mediaId] } }),
    onSuccess: refresh,
  });
  return (
    <section aria-label="Images" className="mb-6 space-y-2 border-t border-slate-200 pt-4">
      <h3 className="font-medium">Images</h3>
      {items.length === 0 && <p className="text-sm text-slate-500">No images yet.</p>}
      <ul className="flex flex-wrap gap-2">
        {items.map((m) => (
          <li key={m.id} data-testid="product-media-item" className="w-24 text-xs">
            {m.image
              ? <img src={(m.thumbnail ?? m.image).url} alt={m.title} className="h-24 w-24 rounded object-cover" />
              : <span className="block h-24 w-24 rounded bg-slate-100 p-2">{m.title}</span>}
            <button type="button" className={`${secondaryButton} mt-1`} disabled={remove.isPending} onClick={() => remove.mutate(m.id)} aria-label={`Remove ${m.title}`}>Remove</button>
          </li>
        ))}
      </ul>
      <label className="block text-sm">
        <span className="mb-1 block text-slate-600">Upload image</span>
        <input
          ref={input}
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif"
          disabled={add.isPending}
          onChange={(e) => { const f = e.target.files?.[0]; if (f) add.mutate(f); }}
          className="text-sm"
        />
      </label>
      {add.isPending && <p role="status" className="text-sm text-slate-500">Uploading…</p>}
      {add.isSuccess && <p role="status" className="text-sm text-emerald-700">Image added.</p>}
      <ErrorAlert error={add.error ?? remove.error} />
    </section>
  );
}
