import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../src/http/context.js';
import { issueTokenPair } from '../src/domains/identity/service.js';
import { asOwner, call, type TestServer } from './harness.js';

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

/** Creates a member through the owner API and returns its full view. */
export async function ownerCreateMember(
  t: TestServer,
  member: Record<string, unknown>,
): Promise<{ id: string; [key: string]: unknown }> {
  const res = await call(t.url, '/members/v1/members', { ...asOwner(t), body: { member } });
  if (res.status !== 200) throw new Error(`create member failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.member;
}

/** A member created by the owner plus a member token for it. */
export async function memberWithToken(t: TestServer, member: Record<string, unknown>): Promise<{ id: string; token: string }> {
  const created = await ownerCreateMember(t, member);
  return { id: created.id, token: await memberToken(t, created.id) };
}

/** Access and refresh token of a member (the refresh token shows revocation). */
export async function memberTokenPair(t: TestServer, memberId: string): Promise<{ accessToken: string; refreshToken: string }> {
  const pair = await issueTokenPair(serviceContext(t), { siteId: t.site.id, clientId: t.clientId, role: 'member', subjectId: memberId });
  return { accessToken: pair.access_token, refreshToken: pair.refresh_token };
}

/** Outbox events recorded for an entity, oldest first, as `slug` list plus payloads. */
export async function eventsOf(t: TestServer, entityId: string): Promise<{ slug: string; entityFqdn: string; payload: unknown }[]> {
  const rows = await t.server.deps.storage.db.selectFrom('outbox_events').select(['slug', 'entity_fqdn', 'payload', 'created_date'])
    .where('entity_id', '=', entityId).orderBy('sequence').orderBy('created_date').execute();
  return rows.map((r) => ({ slug: r.slug, entityFqdn: r.entity_fqdn, payload: typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload }));
}
