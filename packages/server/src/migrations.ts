import type { Migration } from 'kysely';
import { sitesMigrations } from './domains/sites/migrations.js';
import { identityMigrations } from './domains/identity/migrations.js';
import { catalogMigrations } from './domains/catalog/migrations.js';
import { eventsMigrations } from './domains/events/migrations.js';
import { dataMigrations } from './domains/data/migrations.js';
import { membersMigrations } from './domains/members/migrations.js';
import { idempotencyMigration } from './storage/idempotency.js';
import { operationsMigrations } from './operations/migrations.js';
import { inventoryMigrations } from './domains/inventory/migrations.js';
import { jobsMigrations } from './jobs/migrations.js';
import { ownersMigrations } from './domains/owners/migrations.js';
import { cartMigrations } from './domains/cart/migrations.js';
import { cartRulesMigrations } from './domains/cart/rules/migrations.js';
import { abandonedCheckoutsMigrations } from './domains/cart/abandoned/migrations.js';
import { ordersMigrations } from './domains/orders/migrations.js';
import { backInStockMigrations } from './domains/cart/back-in-stock/migrations.js';
import { paymentsMigrations } from './domains/payments/migrations.js';

/**
 * Every domain's migrations, keyed `<domain>/<nnnn>_<what>`; the server, the CLI and the tests hand
 * this list to storage's migrateToLatest (storage itself knows no domain). A domain adds itself here once.
 * Migrations run in name order across domains, so a table never references another domain's table
 * (domains reach each other through services, not tables); `site_id` columns are plain text.
 */
export function domainMigrations(): Record<string, Migration> {
  return {
    ...prefix('sites', sitesMigrations),
    ...prefix('identity', identityMigrations),
    ...prefix('catalog', catalogMigrations),
    ...prefix('events', eventsMigrations),
    ...prefix('data', dataMigrations),
    ...prefix('members', membersMigrations),
    ...prefix('storage', { '0001_idempotency_records': idempotencyMigration }),
    ...prefix('operations', operationsMigrations),
    ...prefix('inventory', inventoryMigrations),
    ...prefix('jobs', jobsMigrations),
    ...prefix('owners', ownersMigrations),
    ...prefix('cart', cartMigrations),
    ...prefix('cart-rules', cartRulesMigrations),
    ...prefix('cart-abandoned', abandonedCheckoutsMigrations),
    ...prefix('orders', ordersMigrations),
    ...prefix('cart-back-in-stock', backInStockMigrations),
    ...prefix('payments', paymentsMigrations),
  };
}

function prefix(domain: string, migrations: Record<string, Migration>): Record<string, Migration> {
  return Object.fromEntries(Object.entries(migrations).map(([name, m]) => [`${domain}/${name}`, m]));
}
