import { defaultClientConditions, defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// `npm run dev` serves on 5173 and sends API calls to a server on 3000 (`npm start`).
const api = ['/oauth2', '/_api', '/stores', '/stores-reader', '/v2', '/media', '/members', '/ecom', '/wix-data'];

export default defineConfig({
  plugins: [react()],
  // Workspace packages resolve to their TypeScript source (package.json `@vitrine/source` condition).
  resolve: { conditions: ['@vitrine/source', ...defaultClientConditions] },
  server: { proxy: Object.fromEntries(api.map((p) => [p, 'http://localhost:3000'])) },
  build: { outDir: 'dist', emptyOutDir: true },
});
