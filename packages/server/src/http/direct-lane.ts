import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppDeps, RequestContext } from './context.js';
import type { CorsPolicy } from './cors.js';
import { JSON_CONTENT_TYPE, openFrame } from './frame.js';
import type { RequestLine } from './logging.js';
import type { RouteDef, SiteRoute } from './route.js';
import { assertMayCall, clientAddress, errorAnswer, resolveCaller } from './route-call.js';
import { nodeRequestHeader } from './request-headers.js';
import { decodeDotR, EncodedJson, requestUrlParts, stringifyForWire } from './wire.js';
import { jsonBodyOf, readIncomingBody } from './request-body.js';
import { assertCleanText } from './text-guard.js';
import { IDEMPOTENCY_KEY_HEADER } from './idempotency.js';
import { violationsFromZod } from './zod-violations.js';
import { countingQueries } from '../storage/query-counter.js';
import { consistencyToken, routeReads } from '../storage/database.js';

/**
 * The direct lane: a call whose input is its path and, for POST, PUT and PATCH, a JSON body (for a
 * GET, optionally the public client's `.r` query parameter and nothing else) to a site route that
 * returns JSON, answered on Node's own request and response objects
 * instead of through Hono. The catalog's reads by id are most of a storefront's API traffic, and its
 * POSTs (cart calls, estimates, query pages, searches) most of the rest; for them the web Request and
 * Response objects, the router's search among about 300 routes, the middleware chain and the generic
 * input decoding cost as much as the read itself (docs/performance-log.md, "The direct lane"). Everything
 * a route call means is the same as in app.ts, through the same functions: caller (route-call.ts),
 * function-level authorization, the bounded body and its JSON (request-body.ts), the text guard, zod
 * validation, the handler, the frame's headers (request id, CORS), the read routing and consistency
 * token, the query count of test mode, error answers and the request line. Whatever the lane is not
 * sure of goes to the app unchanged: other methods, any other query string, percent-escapes, dot segments, an
 * unusual Host, an `Idempotency-Key` header, a path whose first matching route is not one the lane
 * serves. `direct-lane.test.ts` compares its answers (status, body, headers) with the app's for every
 * site route and every kind of caller.
 */
export type DirectLane = (req: IncomingMessage, res: ServerResponse) => boolean;

export interface LaneParts {
  deps: AppDeps;
  /** Every route in the order the app registers them (the first match wins in both). */
  routes: RouteDef[];
  cors: CorsPolicy;
  logRequest: (line: RequestLine) => void;
  consistentHeader: string;
  sqlStatementsHeader: string;
}

/** Segments of plain characters only: no escapes to decode, no empty or dot segments, no query. */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+$/;
/** The one query string the lane reads: `.r` with base64url text (no escapes, no padding), a GET's whole input. */
const DOT_R_QUERY = /^\.r=[A-Za-z0-9_-]+$/;
/** A Host the adapter would take as it is (no normalizing URL parse): lower-case name, optional port. */
const PLAIN_HOST = /^[a-z0-9._-]+(?::\d{1,5})?$/;

interface CompiledRoute {
  def: RouteDef;
  /** Literal segments as text, parameters as their name after ':'; undefined when the path has wildcards or patterns. */
  segments: { literal: string; param: boolean }[] | undefined;
  served: boolean;
}

function compile(def: RouteDef): CompiledRoute {
  const parts = def.path.split('/').filter(Boolean);
  const plain = parts.every((p) => !/[*{}?()]/.test(p));
  return {
    def,
    segments: plain ? parts.map((p) => (p.startsWith(':') ? { literal: p.slice(1), param: true } : { literal: p, param: false })) : undefined,
    served: def.access !== 'public' && !def.raw && !def.rawBodyBytes,
  };
}

/** What the lane writes back: status, the JSON body's bytes, headers beyond the frame's. */
interface Reply { status: number; body: Buffer; headers?: Record<string, string> | undefined }

type Match = { route: CompiledRoute; params: Record<string, string> } | 'app' | undefined;

/** What a request names besides its route: the path (as logged), its parameters and the `.r` text of a GET. */
interface Target { path: string; params: Record<string, string>; dotR: string | undefined }

function matchRoute(routes: CompiledRoute[], segments: string[]): Match {
  for (const route of routes) {
    // A path pattern the lane does not read could match anything: leave the request to the app.
    if (!route.segments) return 'app';
    if (route.segments.length !== segments.length) continue;
    // Literals first, the parameters' object only for the route that matches (no garbage per candidate).
    if (!literalsMatch(route.segments, segments)) continue;
    const params: Record<string, string> = {};
    for (let i = 0; i < segments.length; i++) if (route.segments[i]!.param) params[route.segments[i]!.literal] = segments[i]!;
    return { route, params };
  }
  return undefined;
}

function literalsMatch(parts: { literal: string; param: boolean }[], segments: string[]): boolean {
  for (let i = 0; i < segments.length; i++) if (!parts[i]!.param && parts[i]!.literal !== segments[i]) return false;
  return true;
}

/** Methods whose JSON body is the call's input (the app reads a body for every method but GET, DELETE and OPTIONS). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const IDEMPOTENCY_KEY = IDEMPOTENCY_KEY_HEADER.toLowerCase();

/** The routes a request of `method` may match, in the app's order (a GET with a POST twin answers POST too). */
function routesFor(routes: RouteDef[], method: string): CompiledRoute[] {
  return routes.filter((def) => def.method === method || (method === 'POST' && def.method === 'GET' && def.postTwin)).map(compile);
}

export function createDirectLane(parts: LaneParts): DirectLane {
  const byMethod = new Map(['GET', ...BODY_METHODS].map((method) => [method, routesFor(parts.routes, method)]));
  const { deps } = parts;
  const consistentName = parts.consistentHeader.toLowerCase();

  /** The call's input as the app's readInput makes it: the `.r` payload or the JSON body, then the path's parameters. */
  async function inputOf(req: IncomingMessage, params: Record<string, string>, dotR: string | undefined): Promise<Record<string, unknown>> {
    if (dotR !== undefined) {
      const payload = decodeDotR(dotR);
      assertCleanText([{ value: payload }]);
      return { ...payload, ...params };
    }
    if (!BODY_METHODS.has(req.method!)) return { ...params };
    const { body, needsScan } = jsonBodyOf((await readIncomingBody(req, deps.config.bodyLimitBytes)).toString('utf8'));
    // Plain path segments cannot hold the text the guard looks for (NUL, lone surrogates); a body may.
    if (needsScan) assertCleanText([{ value: body }]);
    return { ...body, ...params };
  }

  /** Validates the call's input and runs its handler in the call's context. */
  async function handle(req: IncomingMessage, def: SiteRoute, target: Target, call: Pick<RequestContext, 'requestId' | 'caller' | 'origin' | 'site'>): Promise<unknown> {
    const parsed = def.request.safeParse(await inputOf(req, target.params, target.dotR), { reportInput: true });
    if (!parsed.success) throw violationsFromZod(parsed.error.issues);
    const ctx: RequestContext = {
      ...call, deps, db: deps.storage.db, dialect: deps.storage.dialect, log: deps.log,
      ip: clientAddress(req.socket.remoteAddress ?? '127.0.0.1', nodeRequestHeader(req, 'x-forwarded-for'), deps.config.trustedProxies),
    };
    return def.handler(ctx, parsed.data, {});
  }

  /** The route call proper, as runRoute (app.ts) makes it. */
  async function call(req: IncomingMessage, def: SiteRoute, target: Target, requestId: string): Promise<Reply> {
    const { site, caller } = await resolveCaller(deps, nodeRequestHeader(req, 'authorization'), nodeRequestHeader(req, 'wix-site-id'));
    assertMayCall(def, site, caller);
    const origin = deps.config.publicUrl ?? requestUrlParts(`http://${req.headers.host!}/`).origin;
    // A GET whose input is its path alone: an answer the handler kept for these parameters is the call's.
    const pathOnly = req.method === 'GET' && target.dotR === undefined;
    const kept = def.keptAnswer && pathOnly ? await def.keptAnswer({ db: deps.storage.db, site: site!, caller, origin }, target.params) : undefined;
    const result = kept ?? await handle(req, def, target, { requestId, caller, origin, site: site! });
    const token = await consistencyToken(deps.storage, req.method !== 'GET');
    // Encoded once into a Buffer (a kept answer already is one): its length is the content-length, and
    // Node writes it beside the header text without joining the two into one more copy on the JS heap.
    const body = result instanceof EncodedJson ? result.bytes() : Buffer.from(stringifyForWire(result));
    return { status: 200, body, headers: token ? { [parts.consistentHeader]: token } : undefined };
  }

  /** The call's reply, or the wire error for what it threw. */
  function settle(req: IncomingMessage, def: SiteRoute, target: Target, requestId: string): Promise<Reply> {
    return routeReads(deps.storage, nodeRequestHeader(req, consistentName), () => call(req, def, target, requestId)).catch((thrown: unknown) => {
      const failed = errorAnswer(thrown, requestId, deps.log);
      return { status: failed.status, body: Buffer.from(JSON.stringify(failed.body)), headers: failed.headers };
    });
  }

  async function answer(req: IncomingMessage, res: ServerResponse, def: SiteRoute, target: Target): Promise<void> {
    const started = performance.now();
    const requestId = randomUUID();
    const frame = openFrame(requestId, parts.cors.responseHeaders(nodeRequestHeader(req, 'origin'))).headers;
    // Test mode: the statements this request ran, in a header, as the app's counting middleware adds it.
    const reply = deps.config.countQueries
      ? await countingQueries(async (count) => {
        const counted = await settle(req, def, target, requestId);
        return { ...counted, headers: { ...counted.headers, [parts.sqlStatementsHeader]: String(count.statements) } };
      })
      : await settle(req, def, target, requestId);
    res.writeHead(reply.status, { ...frame, 'content-type': JSON_CONTENT_TYPE, ...reply.headers, 'content-length': reply.body.length });
    res.end(reply.body);
    parts.logRequest({ reqId: requestId, method: req.method!, path: target.path, status: reply.status, ms: Math.round((performance.now() - started) * 10) / 10 });
  }

  return (req, res) => {
    const routes = byMethod.get(req.method!);
    if (routes === undefined) return false;
    // A keyed write is answered once and replayed after (http/idempotency.ts): the app's path.
    if (req.headers[IDEMPOTENCY_KEY] !== undefined) return false;
    const url = req.url;
    const host = req.headers.host;
    if (url === undefined || host === undefined || !PLAIN_HOST.test(host)) return false;
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const query = q < 0 ? undefined : url.slice(q + 1);
    if (!PLAIN_PATH.test(path) || (query !== undefined && (req.method !== 'GET' || !DOT_R_QUERY.test(query)))) return false;
    if ('encrypted' in req.socket) return false; // TLS: the app builds https origins
    const match = matchRoute(routes, path.slice(1).split('/'));
    if (match === undefined || match === 'app' || !match.route.served) return false;
    answer(req, res, match.route.def as SiteRoute, { path, params: match.params, dotR: query?.slice(3) }).catch((err: unknown) => {
      // Only a failed socket write can land here; the request line is lost with the answer.
      deps.log.error({ err }, 'direct lane: answer failed');
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
    return true;
  };
}
