/**
 * `@vitrine/types`: the wire shapes of the Vitrine REST API, one definition per contract shape. The
 * server validates requests against them and returns them; the SDK derives its caller-facing types
 * from them. Types only: importing this package adds nothing to a bundle. Each module also has its
 * own entry (`@vitrine/types/stores`, `@vitrine/types/members`, ...).
 */
export type * from './common.js';
export type * from './stores/index.js';
export type * from './members.js';
export type * from './data.js';
export type * from './events.js';
export type * from './owners.js';
export type * from './identity.js';
export type * from './ecom-cart.js';
export type * from './ecom-rules.js';
export type * from './ecom-aftercare.js';
export type * from './ecom-orders.js';
export type * from './ecom-payments.js';
