import { defineConfig } from 'vitest/config';

export default defineConfig({
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
