import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Hono, type Context } from 'hono';
import { getRequestListener } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { corsPolicy } from './cors.js';
import { applyFrameHeaders, frameJson, frameResponse, openFrame, REQUEST_ID_HEADER, type RequestFrame } from './frame.js';
import { requestLineWriter } from './logging.js';
import type { AppDeps, BaseContext, RequestContext } from './context.js';
import { ApplicationError, type ErrorBody } from './errors.js';
import type { RouteCall, RouteDef } from './route.js';
import { coerceQueryFields, decodeQuery, EncodedJson, requestUrlParts, stringifyForWire } from './wire.js';
import { requestHeader } from './request-headers.js';
import { jsonBodyOf, readBodyBytes, readBodyText } from './request-body.js';
import { violationsFromZod } from './zod-violations.js';
import { sortBySpecificity } from './route-order.js';
import { answerIdempotently, IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, idempotencyKeyOf } from './idempotency.js';
import { assertCleanText } from './text-guard.js';
import { assertMayCall, clientAddress, errorAnswer, resolveCaller } from './route-call.js';
import { createDirectLane, type DirectLane } from './direct-lane.js';
import { countingQueries } from '../storage/query-counter.js';
import { consistencyToken, routeReads } from '../storage/database.js';

export { REQUEST_ID_HEADER };
/** Statements a request ran; sent only when `config.countQueries` is on (tests). */
export const SQL_STATEMENTS_HEADER = 'x-vitrine-sql-statements';
const CONSISTENT_HEADER = 'X-Wix-Consistent';
const CONSISTENT_HEADER_NAME = CONSISTENT_HEADER.toLowerCase();

type Vars = { requestId: string; frame: RequestFrame };
export type App = Hono<{ Variables: Vars }>;

export interface AppOptions {
  /** Extra handlers after the API (static storefront and dashboard), given the app to mount on. */
  mountStatic?: (app: App) => void;
}

/** Builds the HTTP app: middleware, every declared route, error mapping. No socket is opened here. */
export function createApp(deps: AppDeps, routes: RouteDef[], options: AppOptions = {}): App {
  const app: App = new Hono<{ Variables: Vars }>();
  const logRequest = requestLineWriter(deps.log);

  const cors = corsPolicy({
    origins: deps.config.corsOrigins,
    allowMethods: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type', 'wix-site-id', 'wix-account-id', 'x-wix-bi-gateway', CONSISTENT_HEADER, IDEMPOTENCY_KEY_HEADER],
    exposeHeaders: [REQUEST_ID_HEADER, CONSISTENT_HEADER, IDEMPOTENT_REPLAYED_HEADER],
    maxAgeSeconds: 600,
  });

  // One middleware frames every request (fewer awaited layers on the hot path): request id, CORS,
  // read routing, then the request line once the answer is known. The frame's headers go into the
  // API's responses as they are built (frame.ts); anything else gets them afterwards.
  app.use('*', async (c, next) => {
    const started = performance.now();
    const requestId = randomUUID();
    const frame = openFrame(requestId, cors.responseHeaders(requestHeader(c, 'origin')));
    c.set('requestId', requestId);
    c.set('frame', frame);
    if (c.req.method === 'OPTIONS') {
      c.res = frameResponse(frame, 204, null, cors.preflightHeaders);
    } else {
      // Read replica: plain reads of this request may go to it unless the client's token is ahead of it (storage/read-routing.ts).
      await routeReads(deps.storage, requestHeader(c, CONSISTENT_HEADER_NAME), next);
      if (!frame.sent) applyFrameHeaders(frame, c.res.headers);
    }
    const ms = Math.round((performance.now() - started) * 10) / 10;
    logRequest({ reqId: requestId, method: c.req.method, path: c.req.path, status: c.res.status, ms });
  });

  // Query budgets (test mode only): the statements this request ran, in a response header.
  if (deps.config.countQueries) {
    app.use('*', (c, next) => countingQueries(async (count) => {
      await next();
      c.res.headers.set(SQL_STATEMENTS_HEADER, String(count.statements));
    }));
  }

  const ordered = sortBySpecificity(routes);
  lanes.set(app, createDirectLane({ deps, routes: ordered, cors, logRequest, consistentHeader: CONSISTENT_HEADER, sqlStatementsHeader: SQL_STATEMENTS_HEADER }));
  for (const def of ordered) {
    const handle = (c: Context<{ Variables: Vars }>) => runRoute(c, deps, def);
    app.on(def.method, def.path, handle);
    if (def.postTwin && def.method === 'GET') app.on('POST', def.path, handle);
  }

  options.mountStatic?.(app);

  app.notFound((c) => {
    const error = new ApplicationError(404, 'NOT_FOUND', `No route for ${c.req.method} ${c.req.path}`);
    return errorResponse(c, error.status, error.body());
  });

  app.onError((thrown, c) => {
    const answer = errorAnswer(thrown, c.get('requestId') ?? 'unknown', deps.log);
    return errorResponse(c, answer.status, answer.body, answer.headers);
  });

  return app;
}

/** Each app's direct lane (direct-lane.ts), for the Node listener of a server that serves the app. */
const lanes = new WeakMap<App, DirectLane>();
export const directLaneOf = (app: App): DirectLane | undefined => lanes.get(app);

/**
 * The Node request listener of a server serving `app`: path-only reads through the app's direct
 * lane, everything else through the app (`app.fetch`, as `@hono/node-server` adapts it).
 */
export function nodeRequestListener(app: App, hostname?: string): (req: IncomingMessage, res: ServerResponse) => void {
  const lane = directLaneOf(app);
  const viaApp = getRequestListener(app.fetch, hostname === undefined ? {} : { hostname });
  return (req, res) => {
    if (lane?.(req, res)) return;
    void viaApp(req, res);
  };
}

function errorResponse(c: Context<{ Variables: Vars }>, status: number, body: ErrorBody, headers?: Record<string, string>): Response {
  const text = JSON.stringify(body);
  const frame = c.get('frame');
  // Without a frame (the error came before the first middleware ran) the headers go on plainly.
  return frame ? frameJson(frame, status, text, headers) : new Response(text, { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
}

function clientIp(c: Context, trustedProxies: string[]): string {
  // Requests that came through no socket (the storefront's in-process API reads, app.request() in
  // tests) have no Node bindings: asking getConnInfo would throw, and a thrown error cost a visible
  // share of each in-process read.
  const remote = c.env ? getConnInfo(c).remote.address ?? '127.0.0.1' : '127.0.0.1';
  return clientAddress(remote, requestHeader(c, 'x-forwarded-for'), trustedProxies);
}

async function readInput(c: Context, def: RouteDef, query: URLSearchParams, bodyLimitBytes: number): Promise<Record<string, unknown>> {
  const { payload, fields } = decodeQuery(query);
  const params = c.req.param() as Record<string, string>;
  let body: Record<string, unknown> = {};
  let bodyNeedsScan = false;
  // Bodies are bounded as they are read: a raw-body route (uploads) by its own bound, JSON by the server's.
  if (def.rawBodyBytes) body = { body: new Uint8Array(await readBodyBytes(c, def.rawBodyBytes)), contentType: requestHeader(c, 'content-type') ?? '' };
  else if (c.req.method !== 'GET' && c.req.method !== 'DELETE' && c.req.method !== 'OPTIONS') {
    ({ body, needsScan: bodyNeedsScan } = jsonBodyOf(await readBodyText(c, bodyLimitBytes)));
  }
  // NUL and unpaired surrogates, once for every route (text-guard.ts); a clean body costs one regex scan.
  assertCleanText([
    { value: params },
    { value: fields },
    { value: payload },
    { value: bodyNeedsScan ? body : undefined },
  ]);
  const coerced = coerceQueryFields(fields, def.request) as Record<string, unknown>;
  // Path parameters win: the public client repeats them in the query string and the body.
  return { ...coerced, ...payload, ...body, ...params };
}

async function runRoute(c: Context<{ Variables: Vars }>, deps: AppDeps, def: RouteDef): Promise<Response> {
  const requestId = c.get('requestId');
  const { site, caller } = await resolveCaller(deps, requestHeader(c, 'authorization'), requestHeader(c, 'wix-site-id'));
  // Parsed once per request: the origin and the query string both come from it.
  const url = requestUrlParts(c.req.url);
  const base: BaseContext = {
    requestId,
    deps,
    db: deps.storage.db,
    dialect: deps.storage.dialect,
    caller,
    origin: deps.config.publicUrl ?? url.origin,
    ip: clientIp(c, deps.config.trustedProxies),
    log: deps.log,
  };
  assertMayCall(def, site, caller);
  const raw = await readInput(c, def, url.query, deps.config.bodyLimitBytes);
  const parsed = def.request.safeParse(raw, { reportInput: true });
  if (!parsed.success) throw violationsFromZod(parsed.error.issues);
  // Idempotency-Key on routes declared `idempotent` (http/idempotency.ts, docs/operations.md).
  const call: RouteCall = {};
  if (def.access !== 'public' && def.idempotent) {
    const key = idempotencyKeyOf(requestHeader(c, IDEMPOTENCY_KEY_HEADER.toLowerCase()));
    if (key !== undefined && def.idempotent === true) {
      const answer = await answerIdempotently({ ...base, site: site! }, def, { method: c.req.method, path: c.req.path, input: raw }, parsed.data, key);
      const headers: Record<string, string> = {};
      if (answer.replayed) headers[IDEMPOTENT_REPLAYED_HEADER] = 'true';
      const token = await consistencyToken(deps.storage, true);
      if (token) headers[CONSISTENT_HEADER] = token;
      return frameJson(c.get('frame'), answer.status, answer.body, headers);
    }
    if (key !== undefined) call.idempotencyKey = key;
  }
  const result = def.access === 'public'
    ? await def.handler(base, parsed.data, c.req.raw)
    : await def.handler({ ...base, site: site! } satisfies RequestContext, parsed.data, call);
  if (def.raw) return result as Response;
  const token = await consistencyToken(deps.storage, c.req.method !== 'GET');
  // An answer already encoded goes out as its bytes (kept once made): the adapter neither measures nor encodes the text again.
  const body = result instanceof EncodedJson ? result.bytes() : stringifyForWire(result);
  return frameJson(c.get('frame'), 200, body, token ? { [CONSISTENT_HEADER]: token } : undefined);
}
