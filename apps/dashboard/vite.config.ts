import { defaultClientConditions, defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const api = ['/oauth2', '/_api', '/stores', '/stores-reader', '/v2', '/media', '/members', '/ecom', '/wix-data', '/webhooks', '/events', '/billing', '/notifications', '/docs', '/openapi.json'];

// Served by the server under /dashboard/; `npm run dev` proxies API calls to `npm start` on 3000.
export default defineConfig({
  base: '/dashboard/',
  plugins: [react()],
  // Workspace packages resolve to their TypeScript source (package.json `@vitrine/source` condition).
  resolve: { conditions: ['@vitrine/source', ...defaultClientConditions] },
  server: { proxy: Object.fromEntries(api.map((p) => [p, 'http://localhost:3000'])) },
  build: { outDir: 'dist', emptyOutDir: true },
});
