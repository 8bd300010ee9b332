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

export interface SizeResult { name: string; minified: number; gzipped: number }

export async function measure(): Promise<SizeResult[]> {
  const results: SizeResult[] = [];
  for (const [name, contents] of Object.entries(apps)) {
    const out = await build({
      stdin: { contents, resolveDir: root, loader: 'ts', sourcefile: 'app.ts' },
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
    const code = out.outputFiles[0]!.contents;
    results.push({ name, minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength });
  }
  return results;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const [ours, theirs] = await measure();
  for (const r of [ours!, theirs!]) console.log(`${r.name.padEnd(34)} minified ${kb(r.minified).padStart(10)}   gzipped ${kb(r.gzipped).padStart(9)}`);
  console.log(`ratio (ours / public, gzipped): ${(ours!.gzipped / theirs!.gzipped).toFixed(3)}`);
}
