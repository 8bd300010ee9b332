import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { createLogger, createServer } from '../server.js';
import { openStorage } from '../storage/database.js';
import { migrateToLatest } from '../storage/migrate.js';
import { domainMigrations } from '../migrations.js';
import { createSite, getSite } from '../domains/sites/service.js';
import { createApiKey, createOAuthClient } from '../domains/identity/service.js';
import { DEMO_CLIENT_ID, DEMO_SITE_SLUG, ensureDemoStore } from './demo-store.js';
import { databaseLabel, ensureDemoOwner, generatedPassword, parseAreas, parseRole } from './owner-accounts.js';
import { createAccount } from '../domains/owners/index.js';

const USAGE = `vitrine <command> [options]

  start                         migrate, create the demo store on first run, serve API + storefront + dashboard
  migrate                       run database migrations
  seed                          create the demo store if it does not exist
  create-site --slug S [--name N]
  create-api-key --site S [--name N] [--json]   prints the key once; only its hash is stored
  create-client --site S [--redirect-uri U ...] [--allow-localhost]
  create-owner --site S --email E [--name N] [--role owner|staff] [--areas catalog,orders,members,data,settings]
                                a dashboard account; the password comes from VITRINE_OWNER_PASSWORD or is generated and printed once

Environment: PORT, DATA_DIR, DATABASE_URL, PUBLIC_URL, SMTP_URL, LOG_LEVEL (see README).`;

/** Opens the configured database, migrates it, and runs `fn` with the handle and the migrations just applied. */
async function withStorage<T>(fn: (db: Awaited<ReturnType<typeof openStorage>>['db'], applied: string[]) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const storage = await openStorage({ databaseUrl: config.databaseUrl, schema: config.databaseSchema, dataDir: config.dataDir, statementTimeoutMs: config.statementTimeoutMs });
  try {
    const applied = await migrateToLatest(storage.db, domainMigrations(), config.databaseUrl ? config.databaseSchema : undefined);
    return await fn(storage.db, applied);
  } finally {
    await storage.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      site: { type: 'string' }, slug: { type: 'string' }, name: { type: 'string' }, json: { type: 'boolean' },
      'redirect-uri': { type: 'string', multiple: true }, 'allow-localhost': { type: 'boolean' },
      email: { type: 'string' }, role: { type: 'string' }, areas: { type: 'string' },
    },
    allowPositionals: false,
  });
  switch (command) {
    case 'start': {
      const config = loadConfig();
      const log = createLogger(config.logLevel);
      const server = await createServer(config, log);
      const demo = await ensureDemoStore(server.deps, log);
      const demoOwner = await ensureDemoOwner(server.deps.storage.db, demo.site.id);
      const port = await server.listen();
      const url = config.publicUrl ?? `http://localhost:${port}`;
      log.info({ url, clientId: DEMO_CLIENT_ID, database: server.deps.storage.dialect }, 'Vitrine is running');
      console.log(`\n  Vitrine is running\n  storefront  ${url}/\n  dashboard   ${url}/dashboard/\n  API docs    ${url}/docs\n  demo OAuth client id: ${DEMO_CLIENT_ID}\n`);
      // Printed once, on the start that created the account; `create-owner` makes more.
      if (demoOwner) console.log(`  dashboard sign-in (shown once)\n    e-mail    ${demoOwner.email}\n    password  ${demoOwner.password}\n`);
      const stop = async () => { await server.close(); process.exit(0); };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      return;
    }
    case 'migrate': {
      const applied = await withStorage(async (_db, names) => names);
      console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date');
      return;
    }
    case 'seed': {
      const config = loadConfig();
      const log = createLogger(config.logLevel);
      const server = await createServer(config, log);
      const { created } = await ensureDemoStore(server.deps, log);
      await server.close();
      console.log(created ? 'Demo store created' : 'Demo store already exists');
      return;
    }
    case 'create-site': {
      if (!values.slug) throw new Error('--slug is required');
      const site = await withStorage((db) => createSite(db, { slug: values.slug!, name: values.name ?? values.slug! }));
      console.log(JSON.stringify({ siteId: site.id, slug: site.slug }));
      return;
    }
    case 'create-api-key': {
      if (!values.site) throw new Error('--site is required');
      const config = loadConfig();
      const log = createLogger('warn');
      const server = await createServer(config, log);
      try {
        // Scripts may ask for a demo key before the first start: make the demo store first.
        if (values.site === DEMO_SITE_SLUG) await ensureDemoStore(server.deps, log);
        const site = await getSite(server.deps.storage.db, values.site);
        if (!site) throw new Error(`No site "${values.site}"`);
        const key = await createApiKey(server.deps.storage.db, { siteId: site.id, name: values.name ?? 'cli' });
        const out = { apiKey: key.apiKey, siteId: site.id };
        console.log(values.json ? JSON.stringify(out) : `API key (shown once): ${out.apiKey}\nSite id: ${out.siteId}`);
      } finally {
        await server.close();
      }
      return;
    }
    case 'create-client': {
      if (!values.site) throw new Error('--site is required');
      const client = await withStorage(async (db) => {
        const site = await getSite(db, values.site!);
        if (!site) throw new Error(`No site "${values.site}"`);
        return createOAuthClient(db, { siteId: site.id, name: values.name ?? 'client', redirectUris: values['redirect-uri'] ?? [], allowLocalhost: values['allow-localhost'] ?? false });
      });
      console.log(JSON.stringify({ clientId: client.id, siteId: client.siteId, redirectUris: client.redirectUris }));
      return;
    }
    case 'create-owner': {
      if (!values.site || !values.email) throw new Error('--site and --email are required');
      const config = loadConfig();
      const role = parseRole(values.role);
      const permissions = parseAreas(values.areas);
      const given = process.env.VITRINE_OWNER_PASSWORD;
      const password = given || generatedPassword();
      const account = await withStorage(async (db) => {
        const site = await getSite(db, values.site!);
        if (!site) throw new Error(`No site "${values.site}" in ${databaseLabel(config)}`);
        return createAccount(db, site.id, { email: values.email!, name: values.name, password, role, permissions });
      });
      const out = { accountId: account.id, siteId: account.siteId, email: account.email, role: account.role, ...(given ? {} : { password }) };
      console.log(values.json ? JSON.stringify(out) : [
        `Account ${account.email} (${account.role}) created in ${databaseLabel(config)}`,
        ...(given ? [] : [`Password (shown once): ${password}`]),
      ].join('\n'));
      return;
    }
    default:
      console.log(USAGE);
      if (command && command !== 'help' && command !== '--help') process.exitCode = 1;
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
