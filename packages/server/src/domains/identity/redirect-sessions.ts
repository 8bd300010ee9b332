import type { RedirectSessionResponse } from '@vitrine/types/identity';
import { z } from 'zod';
import type { RequestContext } from '../../http/context.js';
import { ApplicationError, badRequest, violation } from '../../http/errors.js';
import { sessionTokenRef, type SessionTokenRef } from './auth.js';
import { CHALLENGE_PATTERN, redirectUriAllowed } from './oauth-codes.js';
import { hashSecret, randomToken } from './secrets.js';
import { findOAuthClient, insertRedirectSession } from './store.js';

/** A redirect session (the hosted page it points at) stays usable this long. */
export const REDIRECT_SESSION_TTL_MS = 30 * 60 * 1000;

const text = (max: number) => z.string().max(max);
const authRequest = z.object({
  clientId: text(200).optional(),
  responseType: text(50).optional(),
  redirectUri: text(2000).nullish(),
  scope: text(200).nullish(),
  state: text(500).optional(),
  responseMode: text(50).nullish(),
  codeChallenge: text(200).nullish(),
  codeChallengeMethod: text(20).nullish(),
  sessionToken: text(2000).nullish(),
  nonce: text(512).nullish(),
  prompt: text(50).nullish(),
  idp: text(200).nullish(),
});

const loose = z.object({}).catchall(z.unknown());
export const redirectSessionRequest = z.object({
  bookingsCheckout: loose.optional(),
  ecomCheckout: z.object({ checkoutId: text(100).optional() }).optional(),
  eventsCheckout: loose.optional(),
  paidPlansCheckout: loose.optional(),
  login: loose.optional(),
  logout: z.object({ clientId: text(200).optional() }).optional(),
  auth: z.object({ authRequest: authRequest.optional(), prompt: z.enum(['login', 'none', 'consent', 'select_account']).optional() }).optional(),
  storesProduct: z.object({ productSlug: text(150).optional() }).optional(),
  bookingsBook: loose.optional(),
  ecomOrderPaymentRequest: loose.optional(),
  membersAccount: loose.optional(),
  callbacks: z.object({
    postFlowUrl: text(2000).nullish(), thankYouPageUrl: text(2000).nullish(), loginUrl: text(2000).nullish(),
    bookingsServiceListUrl: text(2000).nullish(), cartPageUrl: text(2000).nullish(), planListUrl: text(2000).nullish(),
  }).optional(),
  preferences: z.object({
    useGenericWixPages: z.boolean().nullish(), maintainIdentity: z.boolean().nullish(),
    additionalQueryParameters: z.record(text(100), text(1000)).optional(), checkIfPublish: z.boolean().nullish(),
  }).catchall(z.unknown()).optional(),
  origin: text(2000).nullish(),
});
type RedirectSessionInput = z.infer<typeof redirectSessionRequest>;

const SECTIONS = ['bookingsCheckout', 'ecomCheckout', 'eventsCheckout', 'paidPlansCheckout', 'login', 'logout', 'auth', 'storesProduct', 'bookingsBook', 'ecomOrderPaymentRequest', 'membersAccount'] as const;
/** Sections whose target this server does not have (no bookings, events, plans, payment requests, hosted account pages). */
const NOT_BUILT = new Set<string>(['bookingsCheckout', 'eventsCheckout', 'paidPlansCheckout', 'bookingsBook', 'ecomOrderPaymentRequest', 'membersAccount']);
export const RESPONSE_MODES = ['query', 'fragment', 'web_message'] as const;
export type ResponseMode = (typeof RESPONSE_MODES)[number];

/** What the hosted authorize page needs, validated once when the session is created. */
export interface AuthPayload {
  clientId: string;
  redirectUri: string;
  responseMode: ResponseMode;
  state: string;
  codeChallenge: string;
  prompt: 'login' | 'none';
  /** The session token to redeem, by hash only: the payload is stored and the token is a bearer secret. */
  sessionToken?: SessionTokenRef;
}

export type RedirectSessionView = RedirectSessionResponse;

function url(endpoint: string, params: Record<string, string>): { fullUrl: string; urlDetails: { endpoint: string; searchParams: Record<string, string> } } {
  const u = new URL(endpoint);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return { fullUrl: u.toString(), urlDetails: { endpoint, searchParams: params } };
}

async function validateAuth(ctx: RequestContext, input: NonNullable<RedirectSessionInput['auth']>): Promise<AuthPayload> {
  const req = input.authRequest;
  if (!req) throw violation('auth.authRequest', 'is required', 'REQUIRED_FIELD');
  if (!req.clientId) throw violation('auth.authRequest.clientId', 'is required', 'REQUIRED_FIELD');
  const client = await findOAuthClient(ctx.db, req.clientId);
  if (!client || client.siteId !== ctx.site.id) throw badRequest('INVALID_CLIENT', 'Unknown client id');
  if ((req.responseType ?? 'code') !== 'code') throw violation('auth.authRequest.responseType', 'must be "code" (no implicit grant)', 'INVALID_ENUM_VALUE');
  if (req.codeChallengeMethod !== 'S256') throw violation('auth.authRequest.codeChallengeMethod', 'must be "S256" (PKCE; "plain" is refused)', 'INVALID_ENUM_VALUE');
  if (!req.codeChallenge || !CHALLENGE_PATTERN.test(req.codeChallenge)) throw violation('auth.authRequest.codeChallenge', 'must be base64url(SHA-256(verifier)), 43 characters', 'FORMAT');
  if (!req.state) throw violation('auth.authRequest.state', 'is required', 'REQUIRED_FIELD');
  if (req.scope && req.scope !== 'offline_access') throw violation('auth.authRequest.scope', 'must be "offline_access"', 'INVALID_ENUM_VALUE');
  const mode = (req.responseMode ?? 'query') as ResponseMode;
  if (!RESPONSE_MODES.includes(mode)) throw violation('auth.authRequest.responseMode', 'must be one of query, fragment, web_message', 'INVALID_ENUM_VALUE');
  const redirectUri = req.redirectUri ?? '';
  if (redirectUri && !redirectUriAllowed(client, redirectUri)) throw badRequest('INVALID_REDIRECT_URI', 'redirectUri is not registered for this client');
  if (!redirectUri && mode !== 'web_message') throw violation('auth.authRequest.redirectUri', 'is required unless responseMode is web_message', 'REQUIRED_FIELD');
  const prompt = (req.prompt === 'none' || input.prompt === 'none') ? 'none' : 'login';
  if (mode === 'web_message' && prompt !== 'none') throw violation('auth.prompt', 'must be "none" with responseMode web_message (the page runs in a hidden frame)', 'INVALID_ENUM_VALUE');
  return {
    clientId: client.id, redirectUri, responseMode: mode, state: req.state, codeChallenge: req.codeChallenge, prompt,
    ...(req.sessionToken ? { sessionToken: sessionTokenRef(req.sessionToken) } : {}),
  };
}

/** `POST /_api/redirects-api/v1/redirect-session`: one intent section plus callbacks and preferences. */
export async function createRedirectSession(ctx: RequestContext, input: RedirectSessionInput): Promise<RedirectSessionView> {
  const present = SECTIONS.filter((s) => input[s] !== undefined);
  if (present.length === 0) throw new ApplicationError(400, 'MISSING_INTENT', `One of ${SECTIONS.join(', ')} is required`);
  if (present.length > 1) throw new ApplicationError(400, 'MULTIPLE_INTENTS', `Only one of ${present.join(', ')} may be sent`);
  const kind = present[0]!;
  if (NOT_BUILT.has(kind)) throw new ApplicationError(501, 'SECTION_NOT_SUPPORTED', `Redirect sessions for "${kind}" are not supported by this server`, { section: kind });
  const callerClientId = ctx.caller.kind === 'visitor' || ctx.caller.kind === 'member' ? ctx.caller.clientId : undefined;
  const memberId = ctx.caller.kind === 'member' ? ctx.caller.memberId : undefined;
  const extra = input.preferences?.additionalQueryParameters ?? {};
  const id = randomToken();
  let payload: Record<string, unknown>;
  let target: { fullUrl: string; urlDetails: { endpoint: string; searchParams: Record<string, string> } };
  switch (kind) {
    case 'auth': {
      const auth = await validateAuth(ctx, input.auth!);
      payload = { auth };
      target = url(`${ctx.origin}/_hosted/authorize`, { rs: id });
      break;
    }
    case 'login':
      payload = { clientId: callerClientId, postFlowUrl: input.callbacks?.postFlowUrl ?? null };
      target = url(`${ctx.origin}/_hosted/login`, { rs: id });
      break;
    case 'logout':
      payload = { clientId: input.logout?.clientId ?? callerClientId, memberId: memberId ?? null, postFlowUrl: input.callbacks?.postFlowUrl ?? null };
      target = url(`${ctx.origin}/_hosted/logout`, { rs: id });
      break;
    case 'ecomCheckout': {
      const checkoutId = input.ecomCheckout?.checkoutId;
      if (!checkoutId) throw violation('ecomCheckout.checkoutId', 'is required', 'REQUIRED_FIELD');
      payload = { checkoutId };
      // The server's hosted checkout page (domains/cart); the session id is its capability.
      target = url(`${ctx.origin}/_hosted/checkout`, { ...extra, rs: id });
      break;
    }
    case 'storesProduct': {
      const slug = input.storesProduct?.productSlug;
      if (!slug) throw violation('storesProduct.productSlug', 'is required', 'REQUIRED_FIELD');
      payload = { productSlug: slug };
      target = url(`${ctx.origin}/product-page/${encodeURIComponent(slug)}`, extra);
      break;
    }
    default:
      throw new ApplicationError(501, 'SECTION_NOT_SUPPORTED', `Redirect sessions for "${kind}" are not supported by this server`, { section: kind });
  }
  const now = Date.now();
  // Stored by hash: the id is a bearer capability (an auth session may carry a session token).
  await insertRedirectSession(ctx.db, {
    id: hashSecret(id), siteId: ctx.site.id, kind,
    // A visitor's session remembers the visitor, so a login on the hosted page carries its cart over.
    payload: { ...payload, callbacks: input.callbacks ?? {}, ...(ctx.caller.kind === 'visitor' ? { visitor: ctx.caller } : {}) },
    createdDate: new Date(now).toISOString(), expiresDate: new Date(now + REDIRECT_SESSION_TTL_MS).toISOString(),
  });
  // The caller's own session token is echoed back, as the platform does; it was stored by hash only.
  const sessionToken = kind === 'auth' ? input.auth?.authRequest?.sessionToken ?? undefined : undefined;
  return { redirectSession: { id, ...target, ...(sessionToken ? { sessionToken } : {}) } };
}

export { loadRedirectSession } from './redirect-lookup.js';
