import type { ClientCore } from './core.js';

/**
 * The global context: `client.enableContext('global')` stores a client here so module functions
 * called directly (`products.getProduct(id)`) use it. Kept on globalThis under a registered symbol so
 * two copies of the SDK in one bundle share it.
 */
export const NO_CONTEXT_MESSAGE = 'Wix context is not available. Make sure to initialize the Wix context before using SDK modules';
export const NOT_ELEVATED_MESSAGE =
  'An elevated client is required to use elevated modules. Make sure to initialize the Wix context with an elevated client before using elevated SDK modules';

const CONTEXT_KEY = Symbol.for('vitrine.sdk.context');

interface ContextSlots {
  client?: ClientCore;
  elevatedClient?: ClientCore;
}

function slots(): ContextSlots {
  const holder = globalThis as typeof globalThis & { [CONTEXT_KEY]?: ContextSlots };
  return (holder[CONTEXT_KEY] ??= {});
}

export function setContextClient(client: ClientCore, elevated: boolean): void {
  if (elevated) slots().elevatedClient = client;
  else slots().client = client;
}

/** Forgets the global clients (tests, sign-out of a server-side process). */
export function clearContext(): void {
  const s = slots();
  delete s.client;
  delete s.elevatedClient;
}

/** The client of a direct module call. */
export function contextClient(): ClientCore {
  const s = slots();
  const client = s.client ?? s.elevatedClient;
  if (!client) throw new Error(NO_CONTEXT_MESSAGE);
  return client;
}

/** The client of an `elevate()`d call: the elevated one, or the plain one when its auth is elevated. */
export function elevatedContextClient(): ClientCore {
  const s = slots();
  if (!s.client && !s.elevatedClient) throw new Error(NO_CONTEXT_MESSAGE);
  const client = s.elevatedClient ?? (s.client?.auth.elevated ? s.client : undefined);
  if (!client?.auth.elevated) throw new Error(NOT_ELEVATED_MESSAGE);
  return client;
}
