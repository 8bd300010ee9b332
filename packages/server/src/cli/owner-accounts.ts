import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import type { Executor } from '../storage/database.js';
import { createAccount, OWNER_AREAS, OWNER_ROLES, siteHasOwner, type OwnerArea, type OwnerRole } from '../domains/owners/index.js';

/** The e-mail of the demo site's first owner, printed with its password on the first start. */
export const DEMO_OWNER_EMAIL = 'owner@demo.vitrine.test';

/** A generated password: 18 random bytes as base64url (24 characters, never a common one). */
export function generatedPassword(): string {
  return randomBytes(18).toString('base64url');
}

/** Where a CLI command wrote, so an owner sees when it was not the server's database (another DATA_DIR). */
export function databaseLabel(config: Config): string {
  return config.databaseUrl ? `PostgreSQL schema ${config.databaseSchema ?? 'public'}` : `SQLite in ${config.dataDir}`;
}

/** Creates the demo site's owner once; answers the credentials to print, or undefined when one exists. */
export async function ensureDemoOwner(db: Executor, siteId: string): Promise<{ email: string; password: string } | undefined> {
  if (await siteHasOwner(db, siteId)) return undefined;
  const password = generatedPassword();
  await createAccount(db, siteId, { email: DEMO_OWNER_EMAIL, name: 'Demo owner', password, role: 'owner' });
  return { email: DEMO_OWNER_EMAIL, password };
}

export function parseRole(value: string | undefined): OwnerRole {
  const role = value ?? 'owner';
  if (!(OWNER_ROLES as readonly string[]).includes(role)) throw new Error(`--role must be one of ${OWNER_ROLES.join(', ')}`);
  return role as OwnerRole;
}

export function parseAreas(value: string | undefined): OwnerArea[] {
  if (!value) return [];
  const areas = value.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = areas.filter((a) => !(OWNER_AREAS as readonly string[]).includes(a));
  if (unknown.length) throw new Error(`Unknown areas: ${unknown.join(', ')} (areas: ${OWNER_AREAS.join(', ')})`);
  return areas as OwnerArea[];
}
