/**
 * Bundle size of @vitrine/sdk vs the public client, measured the same way in the same run: an app that
 * creates a client with OAuth and the stores `products` module and lists products, bundled by esbuild
 * for the browser (ESM, minified, tree-shaken), then gzipped.
 *
 *   npx tsx bench/sdk-size.ts
 */
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const apps = {
  // The storefront subset: client, visitor tokens (no member sign-in flows), products, current cart.
  // Target: 6 KB gzip or less (STOREFRONT_SUBSET_MAX), held by packages/sdk/test/bundle-budget.test.ts.
  '@vitrine/sdk storefront subset': `
    import { createClient, VisitorOAuthStrategy } from '@vitrine/sdk';
    import { products } from '@vitrine/sdk/stores';
    import { currentCart } from '@vitrine/sdk/ecom';
    const client = createClient({ modules: { products, currentCart }, auth: VisitorOAuthStrategy({ clientId: 'demo' }) });
    client.products.queryProducts().limit(5).find().then((r) => console.log(r.items));
    client.currentCart.getCurrentCart().then((r) => console.log(r));`,
  '@vitrine/sdk + stores/products': `
    import { createClient, OAuthStrategy } from '@vitrine/sdk';
    import { products } from '@vitrine/sdk/stores';
    const client = createClient({ modules: { products }, auth: OAuthStrategy({ clientId: 'demo' }) });
    client.products.queryProducts().limit(5).find().then((r) => console.log(r.items));`,
  '@wix/sdk + @wix/stores/products': `
    import { createClient, OAuthStrategy } from '@wix/sdk';
    import { products } from '@wix/stores';
    const client = createClient({ modules: { products }, auth: OAuthStrategy({ clientId: 'demo' }) });
    client.products.queryProducts().limit(5).find().then((r) => console.log(r.items));`,
};

export type AppName = keyof typeof apps;
export interface SizeResult { name: string; minified: number; gzipped: number }

/** One app bundled the way a storefront ships it: browser ESM, minified, tree-shaken. */
export async function bundle(name: AppName): Promise<Uint8Array> {
  const out = await build({
    stdin: { contents: apps[name], resolveDir: root, loader: 'ts', sourcefile: 'app.ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['@vitrine/source'],
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  return out.outputFiles[0]!.contents;
}

export const gzippedSize = (code: Uint8Array): number => gzipSync(code, { level: 9 }).byteLength;

export async function measure(): Promise<SizeResult[]> {
  const results: SizeResult[] = [];
  for (const name of Object.keys(apps) as AppName[]) {
    const code = await bundle(name);
    results.push({ name, minified: code.byteLength, gzipped: gzippedSize(code) });
  }
  return results;
}

/** Budget of the storefront subset, gzip bytes. */
export const STOREFRONT_SUBSET_MAX = 6000;

const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const [subset, ours, theirs] = await measure();
  for (const r of [subset!, ours!, theirs!]) console.log(`${r.name.padEnd(34)} minified ${kb(r.minified).padStart(10)}   gzipped ${kb(r.gzipped).padStart(9)}`);
  console.log(`ratio (ours / public, gzipped): ${(ours!.gzipped / theirs!.gzipped).toFixed(3)}`);
  console.log(`storefront subset: ${subset!.gzipped} bytes gzip (budget ${STOREFRONT_SUBSET_MAX}), ratio to public ${(subset!.gzipped / theirs!.gzipped).toFixed(3)}`);
}
