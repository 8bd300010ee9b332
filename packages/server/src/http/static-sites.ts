import fs from 'node:fs';
import path from 'node:path';
import type { Context } from 'hono';
import type { App } from './app.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg', '.ico': 'image/x-icon', '.json': 'application/json',
  '.woff2': 'font/woff2', '.map': 'application/json',
};

export interface StaticSite {
  /** URL prefix, '' for the root. */
  prefix: string;
  /** Folder with the built files (Vite's dist). */
  dir: string;
}

/**
 * Serves built front ends. Unknown paths that ask for HTML get the site's index.html (client-side
 * routing); everything else falls through to the API's JSON 404.
 */
export function mountStaticSites(app: App, sites: StaticSite[]): void {
  for (const site of sites.filter((s) => fs.existsSync(path.join(s.dir, 'index.html')))) {
    const root = path.resolve(site.dir);
    const indexHtml = fs.readFileSync(path.join(root, 'index.html'));
    const handler = async (c: Context, next: () => Promise<void>) => {
      if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
      const rel = decodeURIComponent(c.req.path.slice(site.prefix.length)) || '/';
      const file = path.resolve(root, '.' + rel);
      if (file.startsWith(root + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile()) {
        const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
        const immutable = rel.startsWith('/assets/');
        return c.body(fs.readFileSync(file), 200, { 'content-type': type, 'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache' });
      }
      // The site root always gets the page; deeper paths only when a browser asks for HTML, so an
      // unknown API path from a script still gets the JSON 404.
      if (rel === '/' || ((c.req.header('accept') ?? '').includes('text/html') && !path.extname(rel))) {
        return c.body(indexHtml, 200, { 'content-type': TYPES['.html']!, 'cache-control': 'no-cache' });
      }
      return next();
    };
    app.get(site.prefix === '' ? '/*' : `${site.prefix}/*`, handler);
    if (site.prefix) app.get(site.prefix, (c) => c.redirect(`${site.prefix}/`));
  }
}
