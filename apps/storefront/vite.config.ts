import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { defaultClientConditions, defaultServerConditions, defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** Files worth compressing ahead of time (the server sends `.br` / `.gz` siblings when accepted). */
const COMPRESSIBLE = /\.(js|css|svg|json|txt|xml)$/;

/** Writes brotli and gzip copies of every compressible built file (client build only). */
function precompress(): Plugin {
  return {
    name: 'vitrine-precompress',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      for (const name of Object.keys(bundle).filter((n) => COMPRESSIBLE.test(n))) {
        const file = path.join(dir, name);
        const bytes = fs.readFileSync(file);
        fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

/**
 * Modules every page runs before hydrating: React, React DOM, TanStack Query's core and `useQuery`,
 * and the storefront's shell (router, document, route table, catalog reads, the deferred client,
 * the cart button). The client build puts them in one chunk: by default they are spread over a
 * dozen small chunks shared with the lazy pages, and one file compresses better (the first load of
 * a product page went from 91.2 to 87.4 KiB gzip with this and `modulePreload: false`). A module
 * missing here still works; it only lands in a chunk of its own (bench/storefront.ts shows it).
 */
const FIRST_LOAD = new RegExp([
  String.raw`node_modules/(react|react-dom|scheduler|@tanstack/query-core)/`,
  String.raw`@tanstack/react-query/build/modern/(useQuery|useBaseQuery|errorBoundaryUtils|suspense|QueryErrorResetBoundary|IsRestoringProvider|QueryClientProvider)\.js`,
  String.raw`packages/react/src/(provider|prefetch|keys|auth)\.tsx?`,
  String.raw`apps/storefront/src/(router/|site\.ts|Document\.tsx|routes\.tsx|providers\.tsx|browser\.ts|deferred\.ts|hydrated\.ts)`,
  String.raw`apps/storefront/src/(components/(Meta|Price)|session/deferred-client|catalog/queries|account/AccountLink|cart/(cart-ui|cart-ui-context|deferred-cart)|pages/(NotFound|Error)Page)\.tsx?`,
].join('|'));

/**
 * Two builds (`npm run build`): the browser bundle (`dist/`, hashed files under `assets/`, a
 * manifest the server reads) and the server renderer (`dist-ssr/entry-server.js`, imported by
 * packages/server). Workspace packages are bundled into the server build; npm packages stay imports.
 */
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), precompress()],
  publicDir: isSsrBuild ? false : 'public',
  // Workspace packages resolve to their TypeScript source (package.json `@vitrine/source` condition).
  resolve: { conditions: ['@vitrine/source', ...defaultClientConditions] },
  ssr: { noExternal: ['@vitrine/sdk', '@vitrine/react', '@vitrine/types'], resolve: { conditions: ['@vitrine/source', ...defaultServerConditions] } },
  build: isSsrBuild
    ? { outDir: 'dist-ssr', emptyOutDir: true, target: 'node20' }
    : {
      outDir: 'dist',
      emptyOutDir: true,
      manifest: true,
      // No preload helper around dynamic imports (0.5 KiB of every first load): the server
      // announces a page's chunks with the page, and later chunks have few imports of their own.
      modulePreload: false,
      rolldownOptions: {
        input: 'src/entry-client.tsx',
        output: { codeSplitting: { groups: [{ name: 'first-load', test: FIRST_LOAD }] } },
      },
    },
}));
