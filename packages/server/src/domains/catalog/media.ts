import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../http/context.js';
import { ValidationError } from '../../http/errors.js';
import { CATALOG_LIMITS } from './schema.js';
import type { MediaItem, MediaType, ProductMedia, ProductV1 } from './model.js';
import { changeProductMedia } from './service.js';
import { getSiteFile, mediaItemOf, storeFile } from './media-files.js';

export { mediaTypeOf } from './media-files.js';

/**
 * Product media (V1 add/remove, per-choice media). Sources: an uploaded file's `mediaId` (see
 * media-files.ts), a `wix:image://v1/<id>/...` or `wix:video://v1/<id>/...` URI naming one, a `data:`
 * URL (stored like an upload: images decoded and thumbnailed, at most CATALOG_LIMITS.mediaBytes), or an
 * https URL kept as an external reference (never fetched by the server, so no request forgery).
 */

const MEDIA_ID = /^[a-f0-9]{32}$/;
const WIX_URI = /^wix:(image|video|audio|document):\/\/v1\/([^/#]+)\/?([^#]*)/;
const DATA_URL = /^data:([a-z]+\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/=]+)$/;

/** The media item a write source names, storing data: URLs. Throws a field violation on `field`. */
export async function resolveSource(ctx: RequestContext, src: { mediaId?: string | undefined; url?: string | undefined }, field: string): Promise<MediaItem> {
  const bad = (description: string) => new ValidationError([{ field, description, violatedRule: 'FORMAT', data: {} }]);
  if ((src.mediaId === undefined) === (src.url === undefined)) throw new ValidationError([{ field, description: 'give exactly one of mediaId, url', violatedRule: 'REQUIRED_ONE_OF_FIELD', data: {} }]);
  let id = src.mediaId;
  if (src.url !== undefined) {
    const wix = WIX_URI.exec(src.url);
    const data = DATA_URL.exec(src.url);
    if (wix) id = wix[2];
    else if (data) {
      const bytes = Buffer.from(data[2]!, 'base64');
      const ext = data[1]!.split('/')[1]!.replace(/[^a-z0-9]/g, '');
      const stored = await storeFile(ctx, { bytes, declaredType: data[1]!, fileName: `${randomUUID().replace(/-/g, '')}.${ext}`, secure: false }, field);
      return mediaItemOf(stored);
    } else if (/^https:\/\/[^\s]+$/.test(src.url)) {
      const name = new URL(src.url).pathname.split('/').pop() || 'media';
      return itemFor(randomUUID().replace(/-/g, ''), /\.(mp4|webm|mov)$/i.test(name) ? 'video' : 'image', src.url, 0, 0, name);
    } else throw bad('must be a wix: media URI, a data: URL or an https URL');
  }
  if (!id || !MEDIA_ID.test(id)) throw bad('is not a media id of this site');
  const file = await getSiteFile(ctx, id);
  if (!file) throw bad(`media ${id} does not exist`);
  // A secure file's bytes are never public, so it cannot be product media (use it as a digital file).
  if (file.secure) throw bad(`media ${id} is a secure file`);
  return mediaItemOf(file);
}

function itemFor(id: string, mediaType: MediaType, url: string, width: number, height: number, title: string): MediaItem {
  const picture = { url, width, height };
  if (mediaType === 'video') return { id, title, mediaType, video: { files: [picture] }, thumbnail: picture };
  if (mediaType === 'image') return { id, title, mediaType, image: picture, thumbnail: picture };
  return { id, title, mediaType, url };
}

function withMain(items: MediaItem[]): ProductMedia {
  return { ...(items[0] ? { mainMedia: items[0] } : {}), items };
}

export async function addProductMedia(ctx: RequestContext, id: string, media: { mediaId?: string | undefined; url?: string | undefined; choice?: { option: string; choice: string } | undefined }[]) {
  await changeProductMedia(ctx, id, async (p, tctx) => {
    const items = [...p.media.items];
    const options = structuredClone(p.productOptions);
    for (const [i, m] of media.entries()) {
      const item = await resolveSource(tctx, m, `media[${i}]`);
      if (items.length >= CATALOG_LIMITS.mediaPerProduct) throw new ValidationError([{ field: 'media', description: `a product has at most ${CATALOG_LIMITS.mediaPerProduct} media items`, violatedRule: 'MAX_SIZE', data: { max: CATALOG_LIMITS.mediaPerProduct } }]);
      items.push(item);
      if (m.choice) {
        const choice = findChoice(options, m.choice.option, m.choice.choice, `media[${i}].choice`);
        choice.media = withMain([...(choice.media?.items ?? []), item]);
      }
    }
    return { ...p, media: withMain(items), productOptions: options };
  });
  return {};
}

export async function removeProductMedia(ctx: RequestContext, id: string, mediaIds: string[] | undefined) {
  await changeProductMedia(ctx, id, (p) => {
    // No ids: remove every media item (the platform's behaviour).
    const drop = (m: MediaItem) => (mediaIds && mediaIds.length > 0 ? mediaIds.includes(m.id) : true);
    const options = p.productOptions.map((o) => ({ ...o, choices: o.choices.map((c) => (c.media ? { ...c, media: withMain(c.media.items.filter((m) => !drop(m))) } : c)) }));
    return { ...p, media: withMain(p.media.items.filter((m) => !drop(m))), productOptions: options };
  });
  return {};
}

function findChoice(options: ProductV1['productOptions'], option: string, choice: string, field: string) {
  const o = options.find((x) => x.name === option);
  const c = o?.choices.find((x) => x.value === choice || x.description === choice);
  if (!c) throw new ValidationError([{ field, description: `the product has no choice "${choice}" of option "${option}"`, violatedRule: 'FORMAT', data: { option, choice } }]);
  return c;
}

export async function addMediaToChoices(ctx: RequestContext, id: string, media: { option: string; choice: string; mediaIds?: string[] | undefined }[]) {
  await changeProductMedia(ctx, id, (p) => {
    const options = structuredClone(p.productOptions);
    for (const [i, m] of media.entries()) {
      const choice = findChoice(options, m.option, m.choice, `media[${i}]`);
      const items = (m.mediaIds ?? []).map((mid) => {
        const item = p.media.items.find((x) => x.id === mid);
        if (!item) throw new ValidationError([{ field: `media[${i}].mediaIds`, description: `media ${mid} is not on the product`, violatedRule: 'FORMAT', data: { mediaId: mid } }]);
        return item;
      });
      const existing = choice.media?.items ?? [];
      choice.media = withMain([...existing, ...items.filter((it) => !existing.some((e) => e.id === it.id))]);
    }
    return { ...p, productOptions: options };
  });
  return {};
}

export async function removeMediaFromChoices(ctx: RequestContext, id: string, media: { option: string; choice: string; mediaIds?: string[] | undefined }[]) {
  await changeProductMedia(ctx, id, (p) => {
    const options = structuredClone(p.productOptions);
    for (const [i, m] of media.entries()) {
      const choice = findChoice(options, m.option, m.choice, `media[${i}]`);
      const keep = (choice.media?.items ?? []).filter((it) => m.mediaIds && m.mediaIds.length > 0 && !m.mediaIds.includes(it.id));
      if (keep.length) choice.media = withMain(keep);
      else delete choice.media;
    }
    return { ...p, productOptions: options };
  });
  return {};
}
