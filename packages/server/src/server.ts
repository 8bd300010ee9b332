import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import pino, { type Logger } from 'pino';
import type { Config } from './config.js';
import { createApp, type App } from './http/app.js';
import type { AppDeps } from './http/context.js';
import { allRoutes } from './http/routes.js';
import { mountStaticSites } from './http/static-sites.js';
import { openStorage } from './storage/database.js';
import { migrateToLatest } from './storage/migrate.js';
import { domainMigrations } from './migrations.js';
import { SigningKeys } from './domains/identity/keys.js';
import { startEventWorker } from './domains/events/worker.js';
import { jobWorkerIdle, resumeMemberJobs } from './domains/members/jobs.js';
import { catalogJobWorkerIdle, ensureCatalogJobWorker } from './domains/catalog/jobs.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Server {
  app: App;
  deps: AppDeps;
  /** Starts listening; resolves with the bound port (useful with port 0). */
  listen(): Promise<number>;
  close(): Promise<void>;
}

export function createLogger(level: string): Logger {
  // Never log credentials: request logs carry method, path, status and duration only.
  return pino({ level, redact: ['req.headers.authorization', '*.password', '*.apiKey', '*.refreshToken'] });
}

/** Opens storage, runs migrations, loads signing keys and assembles the app. */
export async function createServer(config: Config, log: Logger = createLogger(config.logLevel)): Promise<Server> {
  const storage = await openStorage({
    databaseUrl: config.databaseUrl,
    schema: config.databaseSchema,
    dataDir: config.dataDir,
    statementTimeoutMs: config.statementTimeoutMs,
  });
  await migrateToLatest(storage.db, domainMigrations(), config.databaseUrl ? config.databaseSchema : undefined);
  const keys = new SigningKeys(storage.db);
  await keys.load();
  const deps: AppDeps = { config, storage, log, keys };
  const app = createApp(deps, allRoutes(), {
    mountStatic: (a) => mountStaticSites(a, [
      { prefix: '/dashboard', dir: path.join(repoRoot, 'apps/dashboard/dist') },
      { prefix: '', dir: path.join(repoRoot, 'apps/storefront/dist') },
    ]),
  });
  // Delivers outbox events (webhooks, e-mails) after commit; off with config.events.workerEnabled = false.
  const eventWorker = startEventWorker(deps, config.events);
  // Bulk jobs (members, catalog) interrupted by a stop continue now rather than on first use.
  resumeMemberJobs(deps);
  ensureCatalogJobWorker(deps);
  let server: ServerType | undefined;
  return {
    app,
    deps,
    listen: () => new Promise((resolve) => {
      server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => resolve(info.port));
    }),
    close: async () => {
      if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
      await eventWorker?.stop();
      await jobWorkerIdle(deps);
      await catalogJobWorkerIdle(deps);
      await storage.close();
    },
  };
}
