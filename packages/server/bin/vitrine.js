#!/usr/bin/env node
// Runs the compiled CLI (`npm run build` writes packages/server/dist). During development,
// `npm run vitrine -- <command>` runs the TypeScript source through tsx instead.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), '../dist/cli/main.js');
if (!existsSync(entry)) {
  console.error('vitrine: the server is not built yet. Run `npm run build` at the repository root.');
  process.exit(1);
}
await import(pathToFileURL(entry).href);
