import { defineJobKind } from '../../jobs/kinds.js';
import { INVENTORY_LIMITS } from './service.js';
import { deleteStaleReservations } from './store.js';

/** How often released, expired and old committed reservation lines are deleted (housekeeping only: expired lines already stopped counting). */
const PRUNE_RESERVATIONS_EVERY_MS = 3_600_000;

export const pruneReservationsJob = defineJobKind<Record<string, never>>({
  kind: 'inventory.prune-reservations',
  everyMs: () => PRUNE_RESERVATIONS_EVERY_MS,
  async run(ctx) {
    const now = Date.now();
    return { deleted: await deleteStaleReservations(ctx.db, null, new Date(now).toISOString(), new Date(now - INVENTORY_LIMITS.committedRetentionMs).toISOString()) };
  },
});

export const inventoryJobKinds = [pruneReservationsJob];
