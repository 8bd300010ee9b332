import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { membersRoutes } from '../src/domains/members/routes.js';
import { asOwner, call, startTestServer, visitorTokens, type CallOptions, type TestServer } from './harness.js';
import { memberWithToken } from './member-tokens.js';

/**
 * The permission matrix of every members route with four identities: a visitor, the member the call is
 * about ("self"), another member ("other") and the owner. Each cell runs on fresh data, so one
 * identity's success never changes another's outcome. Expected: the exact HTTP status.
 */
let t: TestServer;
let visitor: string;

beforeAll(async () => {
  t = await startTestServer();
  visitor = (await visitorTokens(t)).accessToken;
});
afterAll(() => t?.close());

type Who = 'visitor' | 'self' | 'other' | 'owner';
interface Fixture { self: { id: string; token: string }; other: { id: string; token: string }; extra: Record<string, string> }
interface Row {
  route: string;
  /** Builds the request on fresh data; `self` is the member the call is about (private unless said). */
  request(f: Fixture): Promise<{ path: string; body?: unknown; query?: Record<string, string> }> | { path: string; body?: unknown; query?: Record<string, string> };
  expect: Record<Who, number>;
  /** Extra setup per cell. */
  prepare?(f: Fixture): Promise<void>;
  selfPublic?: boolean;
}

const M = '/members/v1/members';
const tag = () => randomBytes(4).toString('hex');
const owner = () => asOwner(t);
const OWNER_ONLY = { visitor: 403, self: 403, other: 403, owner: 200 } as const;
const MEMBER_ONLY = { visitor: 403, self: 200, other: 200, owner: 403 } as const;

async function fixture(selfPublic: boolean): Promise<Fixture> {
  const id = tag();
  const self = await memberWithToken(t, { loginEmail: `self-${id}@matrix.test`, privacyStatus: selfPublic ? 'PUBLIC' : 'PRIVATE', profile: { nickname: `Self ${id}` } });
  const other = await memberWithToken(t, { loginEmail: `other-${id}@matrix.test`, privacyStatus: 'PUBLIC', profile: { nickname: `Other ${id}` } });
  return { self, other, extra: {} };
}

const doc = { nodes: [{ type: 'PARAGRAPH', nodes: [{ type: 'TEXT', textData: { text: 'hi' } }] }] };
async function aboutOf(memberId: string): Promise<string> {
  const res = await call(t.url, '/members/v2/abouts', { ...owner(), body: { memberAbout: { memberId, content: doc } } });
  return res.body.memberAbout.id as string;
}

const rows: Row[] = [
  { route: `GET ${M}/my`, request: () => ({ path: `${M}/my` }), expect: MEMBER_ONLY },
  { route: `POST ${M}/my/slug`, request: () => ({ path: `${M}/my/slug`, body: { slug: `s-${tag()}` } }), expect: MEMBER_ONLY },
  { route: `POST ${M}/join-community`, request: () => ({ path: `${M}/join-community`, body: {} }), expect: MEMBER_ONLY },
  { route: `POST ${M}/leave-community`, request: () => ({ path: `${M}/leave-community`, body: {} }), expect: MEMBER_ONLY },
  { route: `DELETE ${M}/my`, request: () => ({ path: `${M}/my` }), expect: MEMBER_ONLY },
  { route: `GET ${M}/:id`, request: (f) => ({ path: `${M}/${f.self.id}` }), expect: { visitor: 404, self: 200, other: 404, owner: 200 } },
  { route: `GET ${M}/:id (public)`, selfPublic: true, request: (f) => ({ path: `${M}/${f.self.id}` }), expect: { visitor: 200, self: 200, other: 200, owner: 200 } },
  { route: `GET ${M}`, request: () => ({ path: M }), expect: { visitor: 200, self: 200, other: 200, owner: 200 } },
  { route: `POST ${M}/query`, request: () => ({ path: `${M}/query`, body: {} }), expect: { visitor: 200, self: 200, other: 200, owner: 200 } },
  { route: `POST ${M}`, request: () => ({ path: M, body: { member: { loginEmail: `new-${tag()}@matrix.test` } } }), expect: OWNER_ONLY },
  { route: `PATCH ${M}/:memberId`, request: (f) => ({ path: `${M}/${f.self.id}`, body: { member: { profile: { title: 'x' } } } }), expect: { visitor: 404, self: 200, other: 404, owner: 200 } },
  { route: `PATCH ${M}/:memberId (public)`, selfPublic: true, request: (f) => ({ path: `${M}/${f.self.id}`, body: { member: { profile: { title: 'x' } } } }), expect: { visitor: 403, self: 200, other: 403, owner: 200 } },
  { route: `POST ${M}/:id/slug`, request: (f) => ({ path: `${M}/${f.self.id}/slug`, body: { slug: `s-${tag()}` } }), expect: OWNER_ONLY },
  ...(['mute', 'approve', 'block', 'disconnect'] as const).map((a): Row => ({
    route: `POST ${M}/:id/${a}`,
    request: async (f) => {
      if (a === 'approve') await call(t.url, `${M}/${f.self.id}/block`, { ...owner(), body: {} });
      return { path: `${M}/${f.self.id}/${a}`, body: {} };
    },
    // Blocking self (the approve setup) revoked self's token family: refused as unauthenticated.
    expect: a === 'approve' ? { ...OWNER_ONLY, self: 401 } : OWNER_ONLY,
  })),
  {
    route: `POST ${M}/:id/unmute`,
    request: async (f) => {
      await call(t.url, `${M}/${f.self.id}/mute`, { ...owner(), body: {} });
      return { path: `${M}/${f.self.id}/unmute`, body: {} };
    },
    expect: OWNER_ONLY,
  },
  { route: `DELETE ${M}/:id`, request: (f) => ({ path: `${M}/${f.self.id}` }), expect: OWNER_ONLY },
  ...(['phones', 'emails', 'addresses'] as const).map((l): Row => ({ route: `DELETE ${M}/:id/${l}`, request: (f) => ({ path: `${M}/${f.self.id}/${l}` }), expect: OWNER_ONLY })),
  { route: `POST ${M}/bulk/delete`, request: (f) => ({ path: `${M}/bulk/delete`, body: { memberIds: [f.self.id] } }), expect: OWNER_ONLY },
  { route: `POST ${M}/bulk/delete-by-filter`, request: (f) => ({ path: `${M}/bulk/delete-by-filter`, body: { filter: { id: f.self.id } } }), expect: OWNER_ONLY },
  { route: `POST ${M}/bulk/approve-by-filter`, request: (f) => ({ path: `${M}/bulk/approve-by-filter`, body: { filter: { id: f.self.id } } }), expect: OWNER_ONLY },
  { route: `POST ${M}/bulk/block-by-filter`, request: (f) => ({ path: `${M}/bulk/block-by-filter`, body: { filter: { id: f.self.id } } }), expect: OWNER_ONLY },
  {
    route: `GET ${M}/bulk/jobs/:jobId`,
    request: async (f) => {
      const job = await call(t.url, `${M}/bulk/approve-by-filter`, { ...owner(), body: { filter: { id: f.self.id } } });
      return { path: `${M}/bulk/jobs/${job.body.jobId}` };
    },
    expect: OWNER_ONLY,
  },
  // reports: "self" is the reported member (reporting oneself is refused)
  { route: 'POST /members/v1/reports', selfPublic: true, request: (f) => ({ path: '/members/v1/reports', body: { memberId: f.self.id, reason: 'SPAM' } }), expect: { visitor: 403, self: 400, other: 200, owner: 403 } },
  { route: 'GET /members/v1/reports', request: () => ({ path: '/members/v1/reports' }), expect: OWNER_ONLY },
  {
    route: 'POST /members/v1/reports/:id/resolve',
    selfPublic: true,
    request: async (f) => {
      const r = await call(t.url, '/members/v1/reports', { auth: f.other.token, body: { memberId: f.self.id, reason: 'OTHER' } });
      return { path: `/members/v1/reports/${r.body.report.id}/resolve`, body: { mute: true } };
    },
    expect: OWNER_ONLY,
  },
  // member-about of a private member
  { route: 'POST /members/v2/abouts', request: (f) => ({ path: '/members/v2/abouts', body: { memberAbout: { memberId: f.self.id, content: doc } } }), expect: { visitor: 403, self: 200, other: 403, owner: 200 } },
  {
    route: 'GET /members/v2/abouts/my',
    request: async (f) => {
      await aboutOf(f.self.id);
      await aboutOf(f.other.id);
      return { path: '/members/v2/abouts/my' };
    },
    expect: MEMBER_ONLY,
  },
  { route: 'GET /members/v2/abouts/:id', request: async (f) => ({ path: `/members/v2/abouts/${await aboutOf(f.self.id)}` }), expect: { visitor: 404, self: 200, other: 404, owner: 200 } },
  { route: 'PATCH /members/v2/abouts/:memberAboutId', request: async (f) => ({ path: `/members/v2/abouts/${await aboutOf(f.self.id)}`, body: { memberAbout: { content: doc } } }), expect: { visitor: 404, self: 200, other: 404, owner: 200 } },
  { route: 'PATCH /members/v2/abouts/:memberAboutId (public)', selfPublic: true, request: async (f) => ({ path: `/members/v2/abouts/${await aboutOf(f.self.id)}`, body: { memberAbout: { content: doc } } }), expect: { visitor: 403, self: 200, other: 403, owner: 200 } },
  { route: 'DELETE /members/v2/abouts/:id', request: async (f) => ({ path: `/members/v2/abouts/${await aboutOf(f.self.id)}` }), expect: { visitor: 404, self: 200, other: 404, owner: 200 } },
  { route: 'POST /members/v2/abouts/query', request: () => ({ path: '/members/v2/abouts/query', body: {} }), expect: { visitor: 200, self: 200, other: 200, owner: 200 } },
];

describe('members permission matrix', () => {
  it('covers every members route', () => {
    const declared = membersRoutes.map((r) => `${r.method} ${r.path}`).sort();
    const covered = [...new Set(rows.map((r) => r.route.replace(/ \(public\)$/, '')))].sort();
    expect(covered).toEqual(declared);
  });

  const cells = rows.flatMap((row) => (['visitor', 'self', 'other', 'owner'] as const).map((who) => [row.route, who, row] as const));
  it.each(cells)('%s as %s', async (_route, who, row) => {
    const f = await fixture(row.selfPublic ?? false);
    const req = await row.request(f);
    const auth: Pick<CallOptions, 'auth' | 'siteId'> = who === 'visitor' ? { auth: visitor } : who === 'self' ? { auth: f.self.token } : who === 'other' ? { auth: f.other.token } : owner();
    const method = row.route.split(' ')[0]!;
    const snapshot = () => call(t.url, `${M}/${f.self.id}`, { ...owner(), query: { fieldsets: ['FULL'] } }).then((r) => r.body);
    const before = await snapshot();
    const res = await call(t.url, req.path, { method, ...auth, ...(req.body !== undefined ? { body: req.body } : {}), ...(req.query ? { query: req.query } : {}) });
    expect({ who, status: res.status }).toEqual({ who, status: row.expect[who] });
    // A refused call changes nothing of the member it was about.
    if (res.status !== 200) expect(await snapshot()).toEqual(before);
    const anonymous = await call(t.url, req.path, { method, ...(req.body !== undefined ? { body: req.body } : {}) });
    expect(anonymous.status).toBe(401);
  });
});
