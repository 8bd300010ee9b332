/**
 * The published shape of the client packages: `npm pack` @vitrine/types, @vitrine/sdk and
 * @vitrine/react (their `prepack` builds them), install the tarballs into a scratch project outside
 * the workspace, then use them the way a user without TypeScript or a bundler would (a plain Node
 * script against a running server) and the way a TypeScript user would (a type check that sees only
 * the packed `.d.ts` files).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, visitorTokens, type TestServer } from '../../server/test/harness.js';

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PACKAGES = ['types', 'sdk', 'react'] as const;
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
/** Packing builds three packages and installs from the local npm cache: give it time on two cores. */
const SETUP_TIMEOUT_MS = 240_000;

let t: TestServer;
let scratch: string;

async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run('npm', args, { cwd, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

beforeAll(async () => {
  t = await startTestServer();
  for (const name of ['Packed tea', 'Packed mug', 'Packed spoon']) {
    const created = await call(t.url, '/stores/v1/products', { ...asOwner(t), body: { product: { name, productType: 'physical', priceData: { price: 5 } } } });
    if (created.status !== 200) throw new Error(`product create failed: ${created.status}`);
  }
  scratch = await mkdtemp(path.join(os.tmpdir(), 'vitrine-pack-'));
  const tarballs = path.join(scratch, 'tarballs');
  await mkdir(tarballs);
  for (const name of PACKAGES) await npm(['pack', '--silent', '--pack-destination', tarballs], path.join(ROOT, 'packages', name));
  const files = (await readdir(tarballs)).map((f) => path.join(tarballs, f));
  await writeFile(path.join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
  // react and react-query come from the npm cache that `npm ci` filled; the three tarballs are ours.
  await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', ...files, 'react@19', 'react-dom@19', '@tanstack/react-query@5'], scratch);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await t?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('packed client packages', () => {
  it('hold built JavaScript, declarations and source maps only', async () => {
    const sdkDist = await readdir(path.join(scratch, 'node_modules/@vitrine/sdk/dist'));
    expect(sdkDist).toEqual(expect.arrayContaining(['index.js', 'index.d.ts', 'index.js.map', 'client.js']));
    expect(await readdir(path.join(scratch, 'node_modules/@vitrine/sdk'))).not.toContain('src');
    expect((await readdir(path.join(scratch, 'node_modules/@vitrine/types/dist'))).filter((f) => f.endsWith('.js'))).toEqual([]);
  });

  it('work from a plain Node script against a running server', async () => {
    const script = `
      import { createClient, OAuthStrategy } from '@vitrine/sdk';
      import { products } from '@vitrine/sdk/stores';
      import { createElement } from 'react';
      import { renderToString } from 'react-dom/server';
      import { VitrineProvider, useVitrineClient } from '@vitrine/react';
      const client = createClient({ modules: { products }, auth: OAuthStrategy({ clientId: process.env.CLIENT_ID }), host: process.env.HOST });
      const page = await client.products.queryProducts().limit(2).find();
      function Probe() { return createElement('p', null, typeof useVitrineClient().products.queryProducts); }
      const html = renderToString(createElement(VitrineProvider, { client }, createElement(Probe)));
      console.log(JSON.stringify({ names: page.items.map((p) => p.name), total: page.totalCount, html }));
    `;
    await writeFile(path.join(scratch, 'probe.mjs'), script);
    const { stdout } = await run(process.execPath, ['probe.mjs'], { cwd: scratch, env: { ...process.env, HOST: t.url, CLIENT_ID: t.clientId } });
    const out = JSON.parse(stdout) as { names: string[]; total: number; html: string };
    const direct = await call<{ products: { name: string }[]; metadata: { total: number } }>(t.url, '/stores-reader/v1/products/query-platformized', {
      auth: (await visitorTokens(t)).accessToken, body: { query: { paging: { limit: 2 } } },
    });
    expect(direct.status).toBe(200);
    expect(out.names).toEqual(direct.body.products.map((p) => p.name));
    expect(out.names).toHaveLength(2);
    expect(out.total).toBe(direct.body.metadata.total);
    expect(out.html).toBe('<p>function</p>');
  });

  it('type-check a TypeScript user project against the packed declarations', async () => {
    await writeFile(path.join(scratch, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, types: [], lib: ['ES2023', 'DOM'] },
      include: ['app.ts'],
    }));
    await writeFile(path.join(scratch, 'app.ts'), `
      import { createClient, OAuthStrategy } from '@vitrine/sdk';
      import { products } from '@vitrine/sdk/stores';
      import type { ProductV1 } from '@vitrine/types';
      const client = createClient({ modules: { products }, auth: OAuthStrategy({ clientId: 'x' }) });
      export async function names(): Promise<string[]> {
        const page = await client.products.queryProducts().limit(2).find();
        return page.items.map((p) => p.name ?? '');
      }
      export const wire: Pick<ProductV1, 'name'> = { name: 'wire' };
      // @ts-expect-error a module call that does not exist is a type error
      client.products.noSuchCall();
    `);
    const result = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: scratch }).then(() => 'ok', (e: { stdout: string }) => e.stdout);
    expect(result).toBe('ok');
  });
});
