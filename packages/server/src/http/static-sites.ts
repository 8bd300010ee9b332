import fs from 'node:fs';
import path from 'node:path';
import type { Context } from 'hono';
import type { App } from './app.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg', '.ico': 'image/x-icon', '.json': 'application/json',
  '.woff2': 'font/woff2', '.map': 'application/json', '.txt': 'text/plain; charset=utf-8', '.xml': 'application/xml; charset=utf-8',
};

/** Server rendering of a site's pages (the storefront's built `entry-server.js`). */
export interface PageRenderer {
  /** Answers a page request; `origin` is the public origin (PUBLIC_URL or the request's). */
  render(request: Request, origin: string): Promise<Response>;
  /** Non-HTML paths the renderer answers (robots.txt, sitemap.xml). */
  files: readonly string[];
}

export interface StaticSite {
  /** URL prefix, '' for the root. */
  prefix: string;
  /** Folder with the built files (Vite's dist). */
  dir: string;
  /** Renders pages on the server instead of sending index.html. */
  renderer?: PageRenderer;
  /** Public origin for the renderer (config PUBLIC_URL); else the request's origin. */
  publicUrl?: string;
}

/** Precompressed siblings a build may have written, in order of preference. */
const ENCODINGS = [{ name: 'br', ext: '.br' }, { name: 'gzip', ext: '.gz' }] as const;

/**
 * Serves built front ends. Files under `assets/` (hashed names) are immutable; a `.br` / `.gz`
 * sibling written by the build is sent when the browser accepts it. Unknown paths that ask for HTML
 * get the site's rendered page (renderer) or index.html (client-side routing); everything else falls
 * through to the API's JSON 404.
 */
export function mountStaticSites(app: App, sites: StaticSite[]): void {
  for (const site of sites.filter((s) => s.renderer || fs.existsSync(path.join(s.dir, 'index.html')))) {
    const root = path.resolve(site.dir);
    const indexHtml = site.renderer ? undefined : fs.readFileSync(path.join(root, 'index.html'));
    const handler = async (c: Context, next: () => Promise<void>) => {
      if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
      const rel = decodeURIComponent(c.req.path.slice(site.prefix.length)) || '/';
      const file = path.resolve(root, '.' + rel);
      if (file.startsWith(root + path.sep) && !rel.startsWith('/.') && fs.existsSync(file) && fs.statSync(file).isFile()) {
        const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
        const immutable = rel.startsWith('/assets/');
        const accepted = (c.req.header('accept-encoding') ?? '').split(',').map((p) => p.trim().split(';')[0]);
        const encoding = ENCODINGS.find((e) => accepted.includes(e.name) && fs.existsSync(file + e.ext));
        return c.body(fs.readFileSync(encoding ? file + encoding.ext : file), 200, {
          'content-type': type,
          'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
          vary: 'accept-encoding',
          ...(encoding ? { 'content-encoding': encoding.name } : {}),
        });
      }
      // The site root always gets the page; deeper paths only when a browser asks for HTML, so an
      // unknown API path from a script still gets the JSON 404.
      const wantsPage = rel === '/' || ((c.req.header('accept') ?? '').includes('text/html') && !path.extname(rel));
      if (site.renderer && (wantsPage || site.renderer.files.includes(rel))) {
        return site.renderer.render(c.req.raw, site.publicUrl ?? new URL(c.req.url).origin);
      }
      if (indexHtml && wantsPage) return c.body(indexHtml, 200, { 'content-type': TYPES['.html']!, 'cache-control': 'no-cache' });
      return next();
    };
    app.get(site.prefix === '' ? '/*' : `${site.prefix}/*`, handler);
    if (site.prefix) app.get(site.prefix, (c) => c.redirect(`${site.prefix}/`));
  }
}
