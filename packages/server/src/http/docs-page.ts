/**
 * The interactive API reference at /docs: Swagger UI (from the `swagger-ui-dist` package, served by
 * this server, so the page works with no network access) over /openapi.json. Only the files the page
 * needs are served, from a fixed list.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const SWAGGER_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));

export const DOCS_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** The page's own start script: served as a file so the page needs no inline script. */
export const DOCS_INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  persistAuthorization: true,
  tryItOutEnabled: true,
  displayRequestDuration: true,
  filter: true,
  docExpansion: 'none',
  defaultModelsExpandDepth: 0,
});`;

export const DOCS_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Vitrine API reference</title>
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head><body>
<div id="reference"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body></html>`;

const cache = new Map<string, Buffer>();

/** One of the listed files, read once; undefined for any other name. */
export async function docsAsset(name: string): Promise<{ body: Buffer; type: string } | undefined> {
  if (name === 'init.js') return { body: Buffer.from(DOCS_INIT_SCRIPT), type: 'text/javascript; charset=utf-8' };
  const type = Object.hasOwn(DOCS_ASSETS, name) ? DOCS_ASSETS[name] : undefined;
  if (!type) return undefined;
  let body = cache.get(name);
  if (!body) {
    body = await readFile(path.join(SWAGGER_DIR, name));
    cache.set(name, body);
  }
  return { body, type };
}
