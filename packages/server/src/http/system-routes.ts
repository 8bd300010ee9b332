import { z } from 'zod';
import { publicRoute, type RouteDef } from './route.js';
import { pingDatabase } from '../storage/database.js';
import { buildOpenApi } from './openapi.js';
import { docsAsset, DOCS_PAGE } from './docs-page.js';

/** The reference page loads only its own files and calls only this origin. */
const DOCS_CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'";

/** Health, the OpenAPI document and the reference page; `all` is every route, for the document. */
export function systemRoutes(all: () => RouteDef[]): RouteDef[] {
  let openApiText: string | undefined;
  return [
    publicRoute({
      method: 'GET',
      path: '/healthz',
      summary: 'Liveness and database check',
      request: z.object({}),
      response: z.object({ status: z.literal('ok'), database: z.string() }),
      async handler(ctx) {
        await pingDatabase(ctx.db);
        return { status: 'ok', database: ctx.dialect };
      },
    }),
    publicRoute({
      method: 'GET',
      path: '/openapi.json',
      raw: true,
      summary: 'OpenAPI 3.1 document of every route',
      request: z.object({}),
      async handler() {
        openApiText ??= JSON.stringify(buildOpenApi(all()));
        return new Response(openApiText, { headers: { 'content-type': 'application/json; charset=utf-8' } });
      },
    }),
    publicRoute({
      method: 'GET',
      path: '/docs',
      raw: true,
      summary: 'Interactive API reference (Swagger UI over /openapi.json)',
      request: z.object({}),
      async handler() {
        return new Response(DOCS_PAGE, { headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': DOCS_CSP } });
      },
    }),
    publicRoute({
      method: 'GET',
      path: '/docs/assets/:file',
      raw: true,
      summary: 'Files of the API reference page',
      request: z.object({ file: z.string().max(64) }),
      async handler(_ctx, input) {
        const asset = await docsAsset(input.file);
        if (!asset) return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } });
        return new Response(new Uint8Array(asset.body), { headers: { 'content-type': asset.type, 'cache-control': 'public, max-age=86400' } });
      },
    }),
  ];
}
