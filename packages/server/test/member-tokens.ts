import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../src/http/context.js';
import { issueTokenPair } from '../src/domains/identity/service.js';
import type { TestServer } from './harness.js';

/** A service context on the demo site as the owner, for tests that call services directly. */
export function serviceContext(t: TestServer): RequestContext {
  const deps = t.server.deps;
  return {
    requestId: randomUUID(),
    deps,
    db: deps.storage.db,
    dialect: deps.storage.dialect,
    caller: { kind: 'owner', apiKeyId: 'test' },
    origin: t.url,
    ip: '127.0.0.1',
    log: deps.log,
    site: t.site,
  };
}

/** A member access token for `memberId` (until register/login exist, tests create members via the owner API). */
export async function memberToken(t: TestServer, memberId: string): Promise<string> {
  const pair = await issueTokenPair(serviceContext(t), { siteId: t.site.id, clientId: t.clientId, role: 'member', subjectId: memberId });
  return pair.access_token;
}
