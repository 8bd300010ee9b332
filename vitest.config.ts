import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Workspace packages resolve to their TypeScript source (package.json `@vitrine/source` condition).
  resolve: { conditions: ['@vitrine/source', ...defaultClientConditions] },
  ssr: { resolve: { conditions: ['@vitrine/source', ...defaultServerConditions] } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.tsx', 'apps/*/src/**/*.test.{ts,tsx}'],
    environment: 'node',
    globalSetup: ['packages/server/test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: more workers only contend for CPU and database connections.
    maxWorkers: 2,
  },
});
