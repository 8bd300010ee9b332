import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Executor } from '../../../storage/database.js';
import { preparedQuery } from '../../../storage/prepared.js';

/**
 * The site's pricing version: a token that changes with every write to what pricing reads (discount
 * rules, tax regions and their manual rates, shipping regions, the settings row), in the writer's
 * transaction. Pricing reads it first and reuses the setup it loaded under the same token
 * (setup.ts). A random token, not a counter: a write that rolls back can never leave a token that a
 * later, different write would produce again.
 */
interface PricingVersionsTable { site_id: string; version: string }

declare module '../../../storage/schema.js' {
  interface Database {
    pricing_versions: PricingVersionsTable;
  }
}

/** '' when the site's pricing inputs were never written. */
export async function findPricingVersion(db: Executor, siteId: string): Promise<string> {
  const row = (await pricingVersion.run(db, { siteId })).rows[0];
  return row?.version ?? '';
}

/** The pricing version as a scalar subquery ('' when never written), read beside other versions (cart/store.ts#readCartHeads). */
export const pricingVersionSubquery = (siteId: unknown) => sql<string>`COALESCE((SELECT version FROM pricing_versions WHERE site_id = ${siteId}), '')`;

const pricingVersion = preparedQuery((db, p: { siteId: string }) => db.selectFrom('pricing_versions').select('version').where('site_id', '=', p.siteId));

export async function bumpPricingVersion(db: Executor, siteId: string): Promise<void> {
  const version = randomUUID();
  await db.insertInto('pricing_versions').values({ site_id: siteId, version })
    .onConflict((oc) => oc.column('site_id').doUpdateSet({ version })).execute();
}
