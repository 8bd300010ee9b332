import type { RouteDef } from './route.js';
import { systemRoutes } from './system-routes.js';
import { identityRoutes } from '../domains/identity/routes.js';
import { catalogRoutes } from '../domains/catalog/routes.js';
import { inventoryV3Routes } from '../domains/catalog/v3/inventory-routes.js';
import { mediaRoutes } from '../domains/catalog/media-routes.js';
import { dataRoutes } from '../domains/data/routes.js';
import { eventsRoutes } from '../domains/events/routes.js';
import { membersRoutes } from '../domains/members/routes.js';
import { ownersRoutes } from '../domains/owners/routes.js';
import { paymentsRoutes } from '../domains/payments/routes.js';
import { cartRoutes } from '../domains/cart/routes.js';
import { checkoutRoutes } from '../domains/cart/checkout-routes.js';
import { ordersRoutes } from '../domains/orders/routes.js';
import { cartRulesRoutes } from '../domains/cart/rules/routes.js';
import { abandonedCheckoutRoutes } from '../domains/cart/abandoned/routes.js';
import { backInStockRoutes } from '../domains/cart/back-in-stock/routes.js';

/** Every route the server answers. A domain adds its list here once. */
export function allRoutes(): RouteDef[] {
  const routes: RouteDef[] = [
    ...identityRoutes,
    ...catalogRoutes,
    ...inventoryV3Routes,
    ...mediaRoutes,
    ...dataRoutes,
    ...eventsRoutes,
    ...membersRoutes,
    ...ownersRoutes,
    ...paymentsRoutes,
    ...cartRoutes,
    ...checkoutRoutes,
    ...ordersRoutes,
    ...cartRulesRoutes,
    ...abandonedCheckoutRoutes,
    ...backInStockRoutes,
  ];
  return [...routes, ...systemRoutes(() => routes)];
}
