/** Member profile slugs: pure helpers. Slugs are unique per site (see store.ts index members_site_slug). */

export const SLUG_MAX_LENGTH = 100;
/** Lower-case letters, digits and single inner hyphens. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A slug-shaped base from free text (nickname or e-mail local part); `member` when nothing is left. */
export function slugBase(text: string): string {
  const base = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX_LENGTH - 8)
    .replace(/-+$/g, '');
  return base || 'member';
}

/** The first of `base`, `base-1`, `base-2`, ... not in `taken`. */
export function firstFreeSlug(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 1; ; n++) {
    const candidate = `${base}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}
