import { z } from 'zod';
import { publicRoute, type RouteDef } from './route.js';
import { pingDatabase } from '../storage/database.js';
import { buildOpenApi } from './openapi.js';
import { DOCS_PAGE } from './docs-page.js';

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
      summary: 'Readable API reference',
      request: z.object({}),
      async handler() {
        return new Response(DOCS_PAGE, { headers: { 'content-type': 'text/html; charset=utf-8' } });
      },
    }),
  ];
}
