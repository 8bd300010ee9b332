import { createClient, OAuthStrategy } from '@vitrine/sdk';
import { products } from '@vitrine/sdk/stores';

/** The demo site's OAuth client; a deployment sets its own at build time. */
export const CLIENT_ID = import.meta.env.VITE_VITRINE_CLIENT_ID ?? 'demo';

/** One SDK client for the whole storefront, talking to the server that serves this page. */
export const client = createClient({
  modules: { products },
  auth: OAuthStrategy({ clientId: CLIENT_ID }),
  host: window.location.origin,
});

export type Client = typeof client;
