#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so the server needs no build step.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
const here = path.dirname(fileURLToPath(import.meta.url));
const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, '../src/cli/main.ts'), ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
