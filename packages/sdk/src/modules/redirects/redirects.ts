/**
 * Redirect sessions (`@vitrine/sdk/redirects` -> `redirects`), as the public `@wix/redirects` module:
 * one intent section (`auth`, `login`, `logout`, `ecomCheckout`, `storesProduct`, ...) plus
 * `callbacks` and `preferences`; the answer's `fullUrl` is a page the server hosts.
 */
import type * as wire from '@vitrine/types/identity';
import { defineMethod } from '../../define.js';
import type { DateKeys, FromWire } from '../../wire-types.js';

export type Prompt = 'login' | 'none';
export const Prompt = { login: 'login', none: 'none' } as const;

export interface AuthorizeRequest {
  clientId: string;
  responseType?: 'code';
  redirectUri?: string;
  scope?: string;
  state: string;
  responseMode?: 'query' | 'fragment' | 'web_message';
  codeChallenge: string;
  codeChallengeMethod: 'S256';
  sessionToken?: string;
}

export interface CallbackParams {
  postFlowUrl?: string;
  thankYouPageUrl?: string;
  cartPageUrl?: string;
  loginUrl?: string;
  bookingsServiceListUrl?: string;
  planListUrl?: string;
}

export interface CreateRedirectSessionOptions {
  auth?: { authRequest: AuthorizeRequest; prompt?: Prompt };
  login?: Record<string, never>;
  logout?: { clientId: string };
  ecomCheckout?: { checkoutId: string };
  storesProduct?: { productSlug: string };
  bookingsCheckout?: Record<string, unknown>;
  eventsCheckout?: Record<string, unknown>;
  paidPlansCheckout?: Record<string, unknown>;
  bookingsBook?: Record<string, unknown>;
  ecomOrderPaymentRequest?: Record<string, unknown>;
  callbacks?: CallbackParams;
  preferences?: { useGenericWixPages?: boolean; maintainIdentity?: boolean; additionalQueryParameters?: Record<string, string> };
}

/** A session in the caller's names (`_id`); `searchParams` keep the server's keys (preserved by the codec). */
export type RedirectSession = FromWire<wire.RedirectSession, DateKeys, 'searchParams'>;

export const createRedirectSession = defineMethod((client, options: CreateRedirectSessionOptions) =>
  client.request<FromWire<wire.RedirectSessionResponse, DateKeys, 'searchParams'>>({
    method: 'POST',
    path: '/_api/redirects-api/v1/redirect-session',
    payload: { ...options },
    // searchParams keep the server's keys
    decode: { preserve: ['redirectSession.urlDetails.searchParams'] },
  }));
