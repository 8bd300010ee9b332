import type { ClientCore } from './core.js';
import { contextClient, elevatedContextClient } from './context.js';

const IMPL = Symbol.for('vitrine.sdk.impl');

/** The implementation of a module function: the client first, then the caller's arguments. */
export type MethodImpl<A extends unknown[], R> = (client: ClientCore, ...args: A) => R;

/**
 * A module function. Called directly it runs on the global context's client; `createClient` binds
 * it to its own client (`client.products.getProduct(id)`).
 */
export type ModuleMethod<A extends unknown[], R> = ((...args: A) => R) & { readonly [IMPL]: MethodImpl<A, R> };

/** Declares a module function; see docs/sdk.md "Adding a module". */
/* @__NO_SIDE_EFFECTS__ */
export function defineMethod<A extends unknown[], R>(impl: MethodImpl<A, R>): ModuleMethod<A, R> {
  const method = (...args: A): R => impl(contextClient(), ...args);
  return Object.assign(method, { [IMPL]: impl });
}

function implOf(value: unknown): MethodImpl<unknown[], unknown> | undefined {
  return typeof value === 'function' && IMPL in value ? (value as ModuleMethod<unknown[], unknown>)[IMPL] : undefined;
}

/** A module (object of module functions) bound to `client`; other members are passed through. */
export function bindModule<M extends object>(module: M, client: ClientCore): M {
  const bound: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(module)) {
    const impl = implOf(value);
    // A bound function keeps its implementation so `withIdempotencyKey` can bind it again.
    bound[name] = impl ? Object.assign((...args: unknown[]) => impl(client, ...args), { [IMPL]: impl }) : value;
  }
  return bound as M;
}

/**
 * A module function that runs on the global context's elevated client (an `ApiKeyStrategy` client,
 * enabled with `enableContext('global', {elevated: true})` or as the plain global client).
 */
export function elevate<A extends unknown[], R>(method: ModuleMethod<A, R>): (...args: A) => R {
  const impl = implOf(method);
  if (!impl) throw new TypeError('elevate() takes a module function of @vitrine/sdk');
  return (...args: A) => impl(elevatedContextClient(), ...args) as R;
}
