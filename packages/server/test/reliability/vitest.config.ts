import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Fault tests and the hostile-input fuzzer (`npm run test:reliability`): whole server processes that
 * are killed and restarted, private PostgreSQL clusters, thousands of malformed requests. Kept out of
 * `npm test` for their run time; CI runs them after it on both databases.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

export default defineConfig({
  root: ROOT,
  ssr: { resolve: { conditions: ['@vitrine/source', ...defaultServerConditions] } },
  test: {
    include: ['packages/server/test/reliability/**/*.fault.ts', 'packages/server/test/fuzz/**/*.fuzz.ts'],
    environment: 'node',
    globalSetup: ['packages/server/test/global-setup.ts'],
    pool: 'forks',
    // Each file runs several server processes of its own: one file at a time on two cores.
    maxWorkers: 1,
    testTimeout: 240_000,
    hookTimeout: 120_000,
  },
});
