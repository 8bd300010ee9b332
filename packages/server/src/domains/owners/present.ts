import type { OwnerAccount as WireAccount, OwnerSession as WireSession, OwnerSignInResponse, SiteApiKey, SiteOAuthClient } from '@vitrine/types';
import type { ApiKeyListing, OAuthClient } from '../identity/index.js';
import type { OwnerAccount, OwnerSession } from './model.js';
import type { SignedIn } from './service.js';

/** The one place owner accounts, sessions, keys and clients are encoded for the wire (no hashes, no secrets). */
export function presentAccount(a: OwnerAccount): WireAccount {
  return {
    id: a.id, email: a.email, name: a.name, role: a.role, permissions: a.permissions,
    totpEnabled: a.totpSecret !== null, createdDate: a.createdDate, updatedDate: a.updatedDate,
  };
}

export function signInAnswer(s: SignedIn): OwnerSignInResponse {
  return { sessionToken: s.token, siteId: s.site.id, expiresDate: s.session.expiresDate, account: presentAccount(s.account) };
}

export function presentSession(s: OwnerSession, currentId: string | undefined): WireSession {
  return { id: s.id, ip: s.ip, createdDate: s.createdDate, expiresDate: s.expiresDate, current: s.id === currentId };
}

export function presentApiKey(k: ApiKeyListing): SiteApiKey {
  return { id: k.id, name: k.name, createdDate: k.createdDate, revokedDate: k.revokedDate };
}

export function presentOAuthClient(c: OAuthClient & { createdDate: string }): SiteOAuthClient {
  return { id: c.id, name: c.name, redirectUris: c.redirectUris, allowLocalhost: c.allowLocalhost, createdDate: c.createdDate };
}
