import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Tailwind 3 (pure JavaScript). Tailwind 4's native engine ships per-platform packages that this
 * project's npm registry mirror does not carry, which breaks `npm ci`; see docs/engineering.md.
 * @type {import('tailwindcss').Config}
 */
export default {
  content: [path.join(here, 'src/**/*.{ts,tsx}')],
  theme: { extend: {} },
  plugins: [],
};
