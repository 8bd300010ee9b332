import { createContext, useContext } from 'react';

/** The demo site's OAuth client; a deployment sets its own at build time. */
export const CLIENT_ID = import.meta.env.VITE_VITRINE_CLIENT_ID ?? 'demo';
/** The store's name in titles, the header and structured data. */
export const STORE_NAME = import.meta.env.VITE_STORE_NAME ?? 'Vitrine Demo Store';
export const STORE_DESCRIPTION = 'Coffee, tea and brewing gear, roasted and packed by hand.';

/** What the server tells the browser about the page: the public origin and the built assets. */
export interface SiteInfo {
  /** Public origin for canonical URLs (the server's PUBLIC_URL, else the request's origin). */
  origin: string;
  /** Stylesheets of the built client. */
  css: string[];
}

export const SiteContext = createContext<SiteInfo>({ origin: '', css: [] });
export const useSite = () => useContext(SiteContext);

/** The bootstrap object the server writes into the page for the client entry. */
export interface Boot extends SiteInfo {
  /** Dehydrated query cache (text from `dehydrateQueries`). */
  state: string;
  /** The loader failure the server rendered its error page for (the browser hydrates the same page). */
  error?: string;
}
export const BOOT_GLOBAL = '__VITRINE__';
