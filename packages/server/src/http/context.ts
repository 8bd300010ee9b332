import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Executor, Storage } from '../storage/database.js';
import type { DialectName } from '../storage/dialect.js';
import type { Site } from '../domains/sites/service.js';
import type { SigningKeys } from '../domains/identity/keys.js';

/** Who is calling. Set by the auth middleware from the access token or API key. */
export type Caller =
  | { kind: 'anonymous' }
  | { kind: 'visitor'; visitorId: string; clientId: string; familyId: string }
  | { kind: 'member'; memberId: string; clientId: string; familyId: string }
  /**
   * An API key, or an owner / staff account signed in with a password (domains/owners). For a signed-in
   * account `apiKeyId` holds the account id (the actor id events and records keep) and `account` says
   * which session it is and what the account may do.
   */
  | { kind: 'owner'; apiKeyId: string; account?: OwnerAccountCaller }
  | { kind: 'app'; appId: string };

/** A signed-in owner or staff account (domains/owners); permissions name the areas a staff account may use. */
export interface OwnerAccountCaller { accountId: string; sessionId: string; role: 'owner' | 'staff'; permissions: readonly string[] }

/** Long-lived parts of a running server, shared by every request. */
export interface AppDeps {
  config: Config;
  storage: Storage;
  log: Logger;
  keys: SigningKeys;
}

/** What every handler and service receives first. */
export interface BaseContext {
  requestId: string;
  deps: AppDeps;
  /** The database, or the transaction this work runs in (see storage/transaction.ts). */
  db: Executor;
  dialect: DialectName;
  caller: Caller;
  /** Origin clients reach this server at (for hosted-page and media URLs). */
  origin: string;
  /** Client address, from X-Forwarded-For only behind a trusted proxy. */
  ip: string;
  log: Logger;
}

/** A request scoped to one site: every domain call gets one of these. */
export interface RequestContext extends BaseContext {
  site: Site;
}

/**
 * The part of a call's context a kept answer is looked up with (`SiteRoute.keptAnswer`): who calls
 * which site through which origin, and the database, before the input is validated.
 */
export type PeekContext = Pick<RequestContext, 'db' | 'site' | 'caller' | 'origin'>;

/** The same context on a transaction, for services that open one. */
export function withDb<C extends BaseContext>(ctx: C, db: Executor): C {
  return { ...ctx, db };
}

export function isElevated(caller: Caller): boolean {
  return caller.kind === 'owner' || caller.kind === 'app';
}

/** The member id of a member caller, else undefined. */
export function memberIdOf(caller: Caller): string | undefined {
  return caller.kind === 'member' ? caller.memberId : undefined;
}

/** Actor type as events report it. */
export function actorType(caller: Caller): 'ANONYMOUS_VISITOR' | 'MEMBER' | 'WIX_USER' | 'APP' | undefined {
  switch (caller.kind) {
    case 'visitor': return 'ANONYMOUS_VISITOR';
    case 'member': return 'MEMBER';
    case 'owner': return 'WIX_USER';
    case 'app': return 'APP';
    default: return undefined;
  }
}
