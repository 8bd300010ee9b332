import { randomUUID } from 'node:crypto';
import type { Executor } from '../../storage/database.js';
import { LruMap } from '../../lru-map.js';
import { forbidden } from '../../http/errors.js';
import { findSite, findSiteForUpdate, insertSite, updateSiteRow } from './store.js';
import type { DialectName } from '../../storage/dialect.js';

export type { Site, SiteSettings, SiteStatus } from './model.js';
import type { Site, SiteSettings, SiteStatus } from './model.js';

/**
 * Sites are read on every request, so they are cached per process for a few seconds: a status change
 * (disabling a site) reaches every process within SITE_CACHE_MS.
 */
export const SITE_CACHE_MS = 5_000;
/** Sites kept per process (least recently used dropped first). */
export const SITE_CACHE_MAX = 10_000;
const cache = new LruMap<string, { site: Site | undefined; at: number }>(SITE_CACHE_MAX);

export async function getSiteCached(db: Executor, id: string): Promise<Site | undefined> {
  const hit = cache.get(id);
  const now = Date.now();
  if (hit && now - hit.at < SITE_CACHE_MS) return hit.site;
  const site = await findSite(db, id);
  cache.set(id, { site, at: now });
  return site;
}

export function forgetCachedSite(id: string): void {
  cache.delete(id);
}

/** Refuses calls to a site that does not serve (DISABLED or still PENDING). */
export function assertSiteServes(site: Site): void {
  if (site.status === 'DISABLED') throw forbidden('SITE_DISABLED', 'This site is disabled');
  if (site.status === 'PENDING') throw forbidden('SITE_PENDING', 'This site is not active yet');
}

export async function createSite(
  db: Executor,
  input: { slug: string; name: string; status?: SiteStatus; currency?: string; settings?: SiteSettings; id?: string },
): Promise<Site> {
  const now = new Date().toISOString();
  const site: Site = {
    id: input.id ?? randomUUID(),
    slug: input.slug,
    name: input.name,
    status: input.status ?? 'ENABLED',
    currency: input.currency ?? 'USD',
    settings: input.settings ?? {},
    createdDate: now,
    updatedDate: now,
  };
  await insertSite(db, site);
  return site;
}

export async function getSite(db: Executor, idOrSlug: string): Promise<Site | undefined> {
  return findSite(db, idOrSlug);
}

/** The site inside a transaction that will change it: its row stays locked until commit. */
export async function getSiteForUpdate(trx: Executor, dialect: DialectName, id: string): Promise<Site | undefined> {
  return findSiteForUpdate(trx, dialect, id);
}

export async function updateSite(db: Executor, id: string, patch: { status?: SiteStatus; settings?: SiteSettings; name?: string }): Promise<void> {
  await updateSiteRow(db, id, patch, new Date().toISOString());
  forgetCachedSite(id);
}
