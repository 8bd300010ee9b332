import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import type { ServerType } from '@hono/node-server';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { createApp, nodeRequestListener, type App } from './http/app.js';
import { createLogger } from './http/logging.js';
import type { AppDeps } from './http/context.js';
import { allRoutes } from './http/routes.js';
import { mountStaticSites } from './http/static-sites.js';
import { loadPageRenderer } from './http/page-renderer.js';
import { openStorage } from './storage/database.js';
import { migrateToLatest } from './storage/migrate.js';
import { domainMigrations } from './migrations.js';
import { SigningKeys } from './domains/identity/keys.js';
import { eventsJobKinds, stopLocalFanOut } from './domains/events/jobs.js';
import { closeMailTransports, sendMailJob } from './domains/events/mail.js';
import { membersJobKinds } from './domains/members/jobs.js';
import { catalogJobKinds } from './domains/catalog/jobs.js';
import { dataJobKinds } from './domains/data/bulk.js';
import { identityJobKinds } from './domains/identity/auth.js';
import { JobKinds } from './jobs/kinds.js';
import { JobRunner } from './jobs/runner.js';
import { pruneIdempotencyJob, pruneJobsJob } from './jobs/prune.js';
import { inventoryJobKinds } from './domains/inventory/jobs.js';
import { abandonedCheckoutJobKinds } from './domains/cart/abandoned/jobs.js';
import { backInStockJobKinds } from './domains/cart/back-in-stock/jobs.js';
import { paymentsJobKinds } from './domains/payments/jobs.js';
import { ordersJobKinds } from './domains/orders/imports.js';
import { recoverOperationsJob } from './operations/jobs.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Server {
  app: App;
  deps: AppDeps;
  /** This process's job runner (started unless config.jobs.runnerEnabled is false). */
  jobs: JobRunner;
  /** Starts listening; resolves with the bound port (useful with port 0). */
  listen(): Promise<number>;
  /**
   * Before a planned stop: for `ms`, every answer says `Connection: close`, so clients stop reusing
   * their kept-alive connections to this process instead of racing its close (a request sent on an
   * idle connection at the moment the server closes it fails). Give it the keep-alive timeout.
   */
  drain(ms: number): Promise<void>;
  close(): Promise<void>;
}

// The logger (buffered, flushed on exit) lives with the request-logging middleware.
export { createLogger };

/**
 * Every job kind of every domain; a new kind is one more entry here. The events kinds (outbox
 * fan-out, webhook deliveries, retention) are left out when config.events.workerEnabled is false.
 */
export function allJobKinds(config: Pick<Config, 'events'>): JobKinds {
  return new JobKinds([
    pruneJobsJob,
    pruneIdempotencyJob,
    recoverOperationsJob,
    sendMailJob,
    ...(config.events.workerEnabled ? eventsJobKinds : []),
    ...identityJobKinds,
    ...membersJobKinds,
    ...catalogJobKinds,
    ...dataJobKinds,
    ...inventoryJobKinds,
    ...abandonedCheckoutJobKinds,
    ...backInStockJobKinds,
    ...paymentsJobKinds,
    ...ordersJobKinds,
  ]);
}

export interface ServerOptions {
  /** Run migrations before serving (default). A cluster worker skips them: its primary ran them once before forking. */
  migrate?: boolean;
}

/** Opens storage, runs migrations, loads signing keys, assembles the app and starts the background runners. */
export async function createServer(config: Config, log: Logger = createLogger(config.logLevel), options: ServerOptions = {}): Promise<Server> {
  const storage = await openStorage({
    databaseUrl: config.databaseUrl,
    readUrl: config.databaseReadUrl,
    schema: config.databaseSchema,
    dataDir: config.dataDir,
    statementTimeoutMs: config.statementTimeoutMs,
    sqliteCacheMb: config.sqliteCacheMb,
    countQueries: config.countQueries,
    namedStatements: config.databaseNamedStatements,
  });
  if (options.migrate !== false) await migrateToLatest(storage.db, domainMigrations(), config.databaseUrl ? config.databaseSchema : undefined);
  const keys = new SigningKeys(storage.db);
  await keys.load();
  const deps: AppDeps = { config, storage, log, keys };
  // The storefront's pages are rendered on the server when its server build exists (npm start builds it).
  const storefront = await loadPageRenderer(path.join(repoRoot, 'apps/storefront'), (request) => Promise.resolve(app.fetch(request)), log);
  const app: App = createApp(deps, allRoutes(), {
    mountStatic: (a) => mountStaticSites(a, [
      { prefix: '/dashboard', dir: path.join(repoRoot, 'apps/dashboard/dist') },
      { prefix: '', dir: path.join(repoRoot, 'apps/storefront/dist'), renderer: storefront, publicUrl: config.publicUrl },
    ]),
  });
  // Background jobs of every domain (bulk jobs, mails, webhook deliveries, ...): queued ones and those a stopped process left run now.
  const jobs = new JobRunner(deps, allJobKinds(config), config.jobs);
  if (config.jobs.runnerEnabled) jobs.start();
  let server: ServerType | undefined;
  return {
    app,
    deps,
    jobs,
    listen: () => new Promise((resolve) => {
      // `serve` of @hono/node-server, with the app's direct lane in front (http/direct-lane.ts).
      const listening = http.createServer(nodeRequestListener(app, config.host));
      server = listening;
      listening.listen(config.port, config.host, () => resolve((listening.address() as AddressInfo).port));
    }),
    drain: async (ms) => {
      if (server instanceof http.Server) server.on('request', (_req: http.IncomingMessage, res: http.ServerResponse) => { if (!res.headersSent) res.setHeader('connection', 'close'); });
      await new Promise((resolve) => setTimeout(resolve, ms));
    },
    close: async () => {
      if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
      await jobs.stop();
      await stopLocalFanOut(deps);
      closeMailTransports();
      await storage.close();
    },
  };
}
