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
  | { kind: 'owner'; apiKeyId: string }
  | { kind: 'app'; appId: string };

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
