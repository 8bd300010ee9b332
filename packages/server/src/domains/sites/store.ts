import type { Executor } from '../../storage/database.js';
import { forUpdate, readJson, toJson, type DialectName } from '../../storage/dialect.js';
import type { Site, SiteSettings, SiteStatus } from './model.js';

interface SitesTable {
  id: string;
  slug: string;
  name: string;
  status: SiteStatus;
  currency: string;
  settings: unknown;
  created_date: string;
  updated_date: string;
}

declare module '../../storage/schema.js' {
  interface Database {
    sites: SitesTable;
  }
}

function toSite(row: SitesTable): Site {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    status: row.status,
    currency: row.currency,
    settings: readJson<SiteSettings>(row.settings),
    createdDate: row.created_date,
    updatedDate: row.updated_date,
  };
}

export async function findSite(db: Executor, idOrSlug: string): Promise<Site | undefined> {
  const row = await db
    .selectFrom('sites')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', idOrSlug), eb('slug', '=', idOrSlug)]))
    .executeTakeFirst();
  return row ? toSite(row) : undefined;
}

/** The site row locked until the transaction ends (PostgreSQL), so a read-modify-write of its settings loses no concurrent change. */
export async function findSiteForUpdate(trx: Executor, dialect: DialectName, id: string): Promise<Site | undefined> {
  const row = await trx.selectFrom('sites').selectAll().where('id', '=', id).modifyEnd(forUpdate(dialect)).executeTakeFirst();
  return row ? toSite(row) : undefined;
}

export async function insertSite(db: Executor, site: Site): Promise<void> {
  await db
    .insertInto('sites')
    .values({
      id: site.id,
      slug: site.slug,
      name: site.name,
      status: site.status,
      currency: site.currency,
      settings: toJson(site.settings),
      created_date: site.createdDate,
      updated_date: site.updatedDate,
    })
    .execute();
}

export async function updateSiteRow(db: Executor, id: string, patch: { status?: SiteStatus; settings?: SiteSettings; name?: string }, now: string): Promise<void> {
  await db
    .updateTable('sites')
    .set({
      ...(patch.status ? { status: patch.status } : {}),
      ...(patch.name ? { name: patch.name } : {}),
      ...(patch.settings ? { settings: toJson(patch.settings) } : {}),
      updated_date: now,
    })
    .where('id', '=', id)
    .execute();
}
