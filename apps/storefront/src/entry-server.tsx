/**
 * Server rendering of the storefront: the server (packages/server) imports the built copy of this
 * file and hands it the page requests. Each request runs the route loaders (which fill a fresh query
 * cache through the SDK, talking to the API in-process), renders the HTML document with React, and
 * puts the cache in the page so the browser hydrates without fetching again.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { promisify } from 'node:util';
// React's edge build. The Node build keeps each render in an AsyncLocalStorage, and once one is in
// use Node 20 runs a hook on every promise the process creates, API requests included (a product get
// cost 15% more CPU after the first page render; docs/performance-log.md). The browser build opens a
// MessageChannel when loaded, which keeps any process that loads the renderer from exiting.
import { renderToReadableStream } from 'react-dom/server.edge';
import { QueryClient } from '@tanstack/react-query';
import { createClient, VisitorOAuthStrategy, type ClientCore } from '@vitrine/sdk';
import { dehydrateQueries } from '@vitrine/react';
import { createRoutes } from './routes';
import { createStaticRouter, loadRoute, locationOf, renderedState, RouterProvider, statusOf } from './router';
import { Providers } from './providers';
import { BOOT_GLOBAL, CLIENT_ID, type Boot } from './site';
import { clientAssets, type Manifest } from './client-assets';
import { robotsTxt, sitemapXml } from './seo';

export interface RendererOptions {
  /** Folder of the built client (Vite's `dist`, with `.vite/manifest.json`). */
  clientDir: string;
  /** Answers API requests in-process (the server's own `app.fetch`): no socket per read. */
  fetch: (request: Request) => Promise<Response>;
  /** Rendering errors (the page still answers 500). */
  onError?: (error: unknown) => void;
}

export interface Renderer {
  /** Answers a GET for a page, `robots.txt` or `sitemap.xml`; `origin` is the public origin. */
  render(request: Request, origin: string): Promise<Response>;
  /** Non-HTML paths this renderer answers. */
  files: readonly string[];
}

/** SDK clients kept (one per public origin: media URLs and canonical links use it). */
const CLIENTS_MAX = 8;
export function createRenderer(options: RendererOptions): Renderer {
  const manifestText = fs.readFileSync(path.join(options.clientDir, '.vite/manifest.json'), 'utf8');
  // Vite's own manifest format.
  const assetsOf = clientAssets(JSON.parse(manifestText) as Manifest);

  const clients = new Map<string, ClientCore>();
  const clientFor = (origin: string): ClientCore => {
    let client = clients.get(origin);
    if (!client) {
      if (clients.size >= CLIENTS_MAX) clients.delete(clients.keys().next().value!);
      // Visitor tokens in memory, shared by every request of this origin (catalog reads only).
      client = createClient({ auth: VisitorOAuthStrategy({ clientId: CLIENT_ID }), host: origin, fetch: (input, init) => options.fetch(new Request(input, init)) });
      clients.set(origin, client);
    }
    return client;
  };

  return {
    files: ['/robots.txt', '/sitemap.xml'],
    async render(request, origin) {
      const url = new URL(request.url);
      const client = clientFor(origin);
      if (url.pathname === '/robots.txt') return text(robotsTxt(origin), 'text/plain; charset=utf-8');
      if (url.pathname === '/sitemap.xml') return text(await sitemapXml(client, origin), 'application/xml; charset=utf-8');

      const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
      const table = createRoutes({ client, queryClient });
      const result = await loadRoute(table, url);
      if (result.redirect !== undefined) return new Response(null, { status: 302, headers: { location: result.redirect, 'cache-control': 'no-cache' } });
      const router = createStaticRouter(table, renderedState(locationOf(url), result));
      const { script, preload, css } = assetsOf(result.match?.route.module);
      const site = { origin, css };
      const boot: Boot = { ...site, state: dehydrateQueries(queryClient), ...(result.error === undefined ? {} : { error: errorMessage(result.error) }) };
      const bootstrapScriptContent = `window.${BOOT_GLOBAL}=${scriptJson(boot)};`;

      // The storefront renders no Suspense boundary (its router loads a page's module and data before
      // rendering), so the document is complete once React is done: it goes out in one piece,
      // compressed on libuv's threadpool. Streamed, every React chunk flushed the compressor and made
      // a socket write of its own: a product page took 18-20 ms of CPU that way, 7.5 ms in one piece.
      let failed = false;
      let document: Buffer<ArrayBuffer>;
      try {
        const html = await renderToReadableStream(
          <Providers client={client} queryClient={queryClient} site={site}>
            <RouterProvider router={router} />
          </Providers>,
          {
            bootstrapScriptContent,
            bootstrapModules: [script],
            onError(error) {
              failed = true;
              options.onError?.(error);
            },
          },
        );
        await html.allReady;
        document = await readAll(html);
      } catch {
        // The shell failed, or the render was aborted; onError has reported it.
        return text('The page could not be rendered.', 'text/plain; charset=utf-8', 500);
      }
      const encoding = pickEncoding(request.headers.get('accept-encoding') ?? '');
      return new Response(encoding ? await compress(document, encoding) : document, {
        status: failed ? 500 : statusOf(result),
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-cache',
          vary: 'accept-encoding',
          ...(encoding ? { 'content-encoding': encoding } : {}),
          ...(preload.length ? { link: preload.map((p) => `<${p}>; rel=modulepreload`).join(', ') } : {}),
        },
      });
    },
  };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  return Buffer.concat(chunks);
}

/** What the error page says about a loader failure (the browser shows the same after hydrating). */
function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** JSON safe inside an inline script (no `</script>`, no line separators that end a JS string). */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

type Encoding = 'br' | 'gzip' | undefined;

function pickEncoding(accept: string): Encoding {
  const names = accept.split(',').map((p) => p.trim().split(';')[0]);
  return names.includes('br') ? 'br' : names.includes('gzip') ? 'gzip' : undefined;
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Quality 5: a page in about 0.8 ms; 6 saves 1% more bytes for the same time, 4 is 6% larger. */
async function compress(document: Buffer, encoding: 'br' | 'gzip'): Promise<Buffer<ArrayBuffer>> {
  const out = encoding === 'br' ? await brotli(document, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }) : await gzip(document);
  return out as Buffer<ArrayBuffer>; // zlib answers with a buffer of its own (typed as possibly shared memory)
}

function text(body: string, type: string, status = 200): Response {
  return new Response(body, { status, headers: { 'content-type': type, 'cache-control': status === 200 ? 'public, max-age=3600' : 'no-store' } });
}
