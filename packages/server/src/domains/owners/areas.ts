import type { OwnerAccountCaller } from '../../http/context.js';
import { forbidden } from '../../http/errors.js';
import type { OwnerArea } from './model.js';

/**
 * The area each elevated route belongs to, by path prefix (most specific first). A staff account may
 * call an elevated route only when granted its area; a path no prefix names (and the management of
 * accounts itself) is for the `owner` role alone, so a new route is closed to staff until listed here.
 */
export const AREA_PREFIXES: readonly (readonly [string, OwnerArea])[] = [
  ['/_api/vitrine/owners/v1/api-keys', 'settings'],
  ['/_api/vitrine/owners/v1/oauth-clients', 'settings'],
  ['/_api/vitrine/media/', 'catalog'],
  ['/stores/', 'catalog'],
  ['/stores-reader/', 'catalog'],
  ['/members/', 'members'],
  ['/_api/iam/', 'members'],
  ['/wix-data/', 'data'],
  ['/ecom/', 'orders'],
  ['/_api/ecom-', 'orders'],
  ['/payments/', 'orders'],
  ['/v1/bulk/payments-collector/', 'orders'],
  ['/billing/', 'settings'],
  ['/back-in-stock-service/', 'catalog'],
  ['/webhooks/', 'settings'],
  ['/notifications/', 'settings'],
  ['/_api/vitrine/events/', 'settings'],
  ['/_api/vitrine/settings/', 'settings'],
];

/** Routes every signed-in account may call whatever its grants: its own profile, sessions and TOTP. */
const SELF_PREFIX = '/_api/vitrine/owners/v1/me';

export function areaOfPath(path: string): OwnerArea | undefined {
  return AREA_PREFIXES.find(([prefix]) => path.startsWith(prefix))?.[1];
}

/** Throws 403 OWNER_PERMISSION_REQUIRED when a staff account calls an elevated route outside its areas. */
export function assertAccountMayCall(account: OwnerAccountCaller, routePath: string): void {
  if (account.role === 'owner' || routePath.startsWith(SELF_PREFIX)) return;
  const area = areaOfPath(routePath);
  if (area && account.permissions.includes(area)) return;
  throw forbidden('OWNER_PERMISSION_REQUIRED', area
    ? `This account has no permission for the ${area} area`
    : 'Only an owner account may do this');
}
