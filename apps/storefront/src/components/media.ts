/** The image URL of a collection's `media` (typed `unknown` on the wire: narrowed here, never cast). */
export function collectionImageUrl(media: unknown): string | undefined {
  if (!isObject(media) || !isObject(media.mainMedia) || !isObject(media.mainMedia.image)) return undefined;
  const url = media.mainMedia.image.url;
  return typeof url === 'string' ? url : undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}
