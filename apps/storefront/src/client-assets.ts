/** The client entry's key in Vite's manifest. */
export const CLIENT_ENTRY = 'src/entry-client.tsx';

/** The part of a Vite manifest entry the server reads. */
export interface ManifestChunk { file: string; css?: string[]; imports?: string[] }
export type Manifest = Record<string, ManifestChunk>;

/** What a page loads up front: its scripts (to announce with `modulepreload`) and stylesheets. */
export interface PageAssets {
  /** The module script that starts the app. */
  script: string;
  preload: string[];
  css: string[];
}

/** Keys of the chunks `key` imports statically, directly or through other chunks, and `key` itself. */
function withStaticImports(manifest: Manifest, key: string): string[] {
  const seen = new Set<string>([key]);
  const visit = (k: string) => {
    for (const dep of manifest[k]?.imports ?? []) {
      if (seen.has(dep)) continue;
      seen.add(dep);
      visit(dep);
    }
  };
  visit(key);
  return [...seen];
}

const files = (manifest: Manifest, keys: string[]) => keys.map((k) => manifest[k]?.file).filter((f): f is string => Boolean(f)).map((f) => `/${f}`);
const stylesheets = (manifest: Manifest, keys: string[]) => keys.flatMap((k) => manifest[k]?.css ?? []).map((f) => `/${f}`);

/**
 * The assets of a page: the entry with every chunk it imports statically, however deep, plus the
 * matched lazy page's chunk and its imports (`pageModule`, a manifest key). Announcing them all at
 * once avoids a waterfall of imports discovered one level at a time, and the page's chunk is there
 * when the browser wants it before hydrating.
 */
export function clientAssets(manifest: Manifest): (pageModule?: string) => PageAssets {
  const entry = manifest[CLIENT_ENTRY];
  if (!entry) throw new Error(`${CLIENT_ENTRY} is missing from the storefront build manifest`);
  const entryKeys = withStaticImports(manifest, CLIENT_ENTRY);
  const base: PageAssets = { script: `/${entry.file}`, preload: files(manifest, entryKeys.slice(1)), css: stylesheets(manifest, entryKeys) };
  const byPage = new Map<string, PageAssets>();
  return (pageModule) => {
    if (!pageModule || !manifest[pageModule]) return base;
    let assets = byPage.get(pageModule);
    if (!assets) {
      const extra = withStaticImports(manifest, pageModule).filter((k) => !entryKeys.includes(k));
      assets = { script: base.script, preload: [...base.preload, ...files(manifest, extra)], css: [...base.css, ...stylesheets(manifest, extra)] };
      byPage.set(pageModule, assets);
    }
    return assets;
  };
}
