import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/** Browser tests: built front ends served by a real server, driven in Debian's Chromium. */
export default defineConfig({
  ssr: { resolve: { conditions: ['@vitrine/source', ...defaultServerConditions] } },
  test: {
    include: ['e2e/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['packages/server/test/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
