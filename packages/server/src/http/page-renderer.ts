import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger } from 'pino';
import type { PageRenderer } from './static-sites.js';

/** Where a front end's build puts its server renderer: the app renders pages when this file exists. */
export const rendererEntry = (appDir: string): string => path.join(appDir, 'dist-ssr/entry-server.js');

/**
 * Loads a front end's server renderer from its build (`dist-ssr/entry-server.js`, exporting
 * `createRenderer`), if it was built. Page reads go to `fetch` in-process (the app's own handler).
 */
export async function loadPageRenderer(appDir: string, fetch: (request: Request) => Promise<Response>, log: Logger): Promise<PageRenderer | undefined> {
  const entry = rendererEntry(appDir);
  if (!fs.existsSync(entry)) return undefined;
  const mod: unknown = await import(pathToFileURL(entry).href);
  if (typeof mod !== 'object' || mod === null || !('createRenderer' in mod) || typeof mod.createRenderer !== 'function') {
    throw new Error(`${entry} does not export createRenderer`);
  }
  const renderer: unknown = mod.createRenderer({ clientDir: path.join(appDir, 'dist'), fetch, onError: (err: unknown) => log.error({ err }, 'page render failed') });
  if (!isRenderer(renderer)) throw new Error(`${entry}: createRenderer did not return a renderer`);
  return renderer;
}

function isRenderer(v: unknown): v is PageRenderer {
  return typeof v === 'object' && v !== null && 'render' in v && typeof v.render === 'function' && 'files' in v && Array.isArray(v.files);
}
