import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { createLogger, createServer, type Server } from '../server.js';
import { openStorage } from '../storage/database.js';
import { clusterSettingWarnings } from '../storage/cluster-settings.js';
import { migrateToLatest } from '../storage/migrate.js';
import { domainMigrations } from '../migrations.js';
import { createSite, getSite } from '../domains/sites/service.js';
import { createApiKey, createOAuthClient } from '../domains/identity/service.js';
import { DEMO_CLIENT_ID, DEMO_SITE_SLUG, ensureDemoStore } from './demo-store.js';
import { databaseLabel, ensureDemoOwner, generatedPassword, parseAreas, parseRole } from './owner-accounts.js';
import { createAccount } from '../domains/owners/index.js';
import { readImportFile, runImport, type ImportProgress } from './import.js';
import type { RequestContext } from '../http/context.js';
import { isClusterWorker, parseWorkers, runPrimary, WORKER_DRAIN_MS, WORKERS_MAX } from './cluster.js';
import { limitHeapGrowth } from './heap.js';

interface CommandHelp { name: string; summary: string; options?: [flag: string, meaning: string][] }

/** Every command with its options: `vitrine --help` prints them all, `vitrine help <command>` one. */
const COMMANDS: CommandHelp[] = [
  { name: 'start', summary: 'migrate, create the demo store on first run, serve API + storefront + dashboard', options: [['--workers N', `server processes sharing the port (node cluster, 1 to ${WORKERS_MAX}; default 1)`]] },
  { name: 'migrate', summary: 'run database migrations' },
  { name: 'seed', summary: 'create the demo store if it does not exist (one transaction: an interrupted seed is simply run again)' },
  { name: 'create-site', summary: 'create a site', options: [['--slug S', 'site slug (required)'], ['--name N', 'display name (default: the slug)']] },
  {
    name: 'create-api-key', summary: 'create an owner API key; prints it once (only its hash is stored)',
    options: [['--site S', 'site slug (required)'], ['--name N', 'label of the key'], ['--json', 'print {"apiKey", "siteId"} as JSON']],
  },
  {
    name: 'create-client', summary: 'create an OAuth client for a storefront or app',
    options: [['--site S', 'site slug (required)'], ['--name N', 'label'], ['--redirect-uri U', 'allowed redirect URI (repeatable)'], ['--allow-localhost', 'also allow any http://localhost redirect']],
  },
  {
    name: 'create-owner', summary: 'create a dashboard account; the password comes from VITRINE_OWNER_PASSWORD or is generated and printed once',
    options: [['--site S', 'site slug (required)'], ['--email E', 'sign-in e-mail (required)'], ['--name N', 'display name'], ['--role R', 'owner (default) or staff'], ['--areas A,B', 'staff areas: catalog, orders, members, data, settings'], ['--json', 'print the account as JSON']],
  },
  {
    name: 'import products|items', summary: 'import a .csv or .json file with progress; run it again to resume after an interruption',
    options: [['--site S', 'site slug (required)'], ['--file F', 'the .csv (header row) or .json (array of objects) file (required)'], ['--collection C', 'data collection id (items only)']],
  },
];

function usage(only?: string): string {
  const list = only ? COMMANDS.filter((c) => c.name.split(' ')[0] === only) : COMMANDS;
  const lines = ['vitrine <command> [options]', ''];
  for (const c of list) {
    lines.push(`  ${c.name.padEnd(24)}${c.summary}`);
    for (const [flag, meaning] of c.options ?? []) lines.push(`      ${flag.padEnd(22)}${meaning}`);
  }
  lines.push('', 'Environment: PORT, DATA_DIR, DATABASE_URL, DATABASE_READ_URL, PUBLIC_URL, SMTP_URL, LOG_LEVEL (see README and docs/deploy.md).');
  return lines.join('\n');
}

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
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      site: { type: 'string' }, slug: { type: 'string' }, name: { type: 'string' }, json: { type: 'boolean' },
      'redirect-uri': { type: 'string', multiple: true }, 'allow-localhost': { type: 'boolean' },
      email: { type: 'string' }, role: { type: 'string' }, areas: { type: 'string' },
      file: { type: 'string' }, collection: { type: 'string' }, help: { type: 'boolean', short: 'h' }, workers: { type: 'string' },
    },
    allowPositionals: command === 'import' || command === 'help',
  });
  if (values.help) {
    console.log(usage(command));
    return;
  }
  switch (command) {
    case 'start': {
      await startCommand(parseWorkers(values.workers));
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
      const show = progressPrinter('seeding the demo store');
      const { created } = await ensureDemoStore(server.deps, log, show);
      show.finish();
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
    case 'import': {
      await importCommand(positionals[0], { site: values.site, file: values.file, collection: values.collection });
      return;
    }
    case 'help':
      console.log(usage(positionals[0]));
      return;
    default:
      console.log(usage());
      if (command && command !== '--help' && command !== '-h') process.exitCode = 1;
  }
}

/**
 * `vitrine start [--workers N]`. One process: prepare the database and serve. With N > 1 the primary
 * prepares the database once (migrations, signing keys, demo store), then forks N workers that only
 * serve (cluster.ts); the banner is printed once, by the primary, when every worker listens.
 */
async function startCommand(workers: number): Promise<void> {
  // The storefront's server rendering loads React by NODE_ENV: unset, it ran React's development
  // build (extra checks on every render). Serving is production unless the operator says otherwise.
  process.env.NODE_ENV ??= 'production';
  limitHeapGrowth();
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  if (isClusterWorker()) {
    const server = await createServer(config, log, { migrate: false });
    await server.listen();
    stopOnSignals(server, WORKER_DRAIN_MS);
    return;
  }
  const clustered = workers > 1;
  // The primary of a cluster only prepares: it runs no jobs and closes its database before forking.
  const server = await createServer(clustered ? { ...config, jobs: { ...config.jobs, runnerEnabled: false } } : config, log);
  const demo = await ensureDemoStore(server.deps, log);
  const demoOwner = await ensureDemoOwner(server.deps.storage.db, demo.site.id);
  const database = server.deps.storage.dialect;
  for (const warning of await clusterSettingWarnings(server.deps.storage)) log.warn({ database }, warning);
  let port: number;
  let pids: number[] = [process.pid];
  if (clustered) {
    await server.close();
    const handle = await runPrimary(workers, log);
    port = handle.port;
    pids = handle.pids();
  } else {
    port = await server.listen();
    stopOnSignals(server);
  }
  const url = config.publicUrl ?? `http://localhost:${port}`;
  // Without SMTP_URL nothing is sent: mails are kept for the dashboard's mailbox (events/mail.ts).
  const mail = config.smtpUrl ? 'sent over SMTP_URL' : "kept in the dashboard's mailbox (no SMTP_URL)";
  log.info({ url, clientId: DEMO_CLIENT_ID, database, workers, mail }, 'Vitrine is running');
  console.log(`\n  Vitrine is running\n  storefront  ${url}/\n  dashboard   ${url}/dashboard/\n  API docs    ${url}/docs\n  demo OAuth client id: ${DEMO_CLIENT_ID}\n  processes   ${pids.join(' ')}\n  e-mail      ${mail}\n`);
  // Printed once, on the start that created the account; `create-owner` makes more.
  if (demoOwner) console.log(`  dashboard sign-in (shown once)\n    e-mail    ${demoOwner.email}\n    password  ${demoOwner.password}\n`);
}

/**
 * SIGTERM/SIGINT: stop taking connections, finish requests in flight and held jobs, exit. A cluster
 * worker first drains for `drainMs` (its siblings keep the port, so clients lose nothing by waiting).
 */
function stopOnSignals(server: Server, drainMs = 0): void {
  const stop = async () => {
    if (drainMs) await server.drain(drainMs);
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** `vitrine import products|items`: progress on stderr, a summary on stdout, exit 1 when a row failed. */
async function importCommand(kind: string | undefined, opts: { site?: string | undefined; file?: string | undefined; collection?: string | undefined }): Promise<void> {
  if (kind !== 'products' && kind !== 'items') throw new Error('vitrine import products|items --site S --file F [--collection C]');
  if (!opts.site || !opts.file) throw new Error('--site and --file are required');
  const { rows, sha } = await readImportFile(opts.file);
  const config = loadConfig();
  const log = createLogger('warn');
  const server = await createServer(config, log);
  try {
    const site = await getSite(server.deps.storage.db, opts.site);
    if (!site) throw new Error(`No site "${opts.site}"`);
    const ctx: RequestContext = {
      requestId: `import-${sha.slice(0, 12)}`, deps: server.deps, db: server.deps.storage.db, dialect: server.deps.storage.dialect,
      caller: { kind: 'owner', apiKeyId: 'cli-import' }, origin: '', ip: '127.0.0.1', log, site,
    };
    const showProgress = progressPrinter(`importing ${kind}`);
    const result = await runImport(ctx, { kind, rows, sha, collectionId: opts.collection }, showProgress);
    showProgress.finish();
    console.log(JSON.stringify({ total: result.total, created: result.created, alreadyImported: result.alreadyImported, failed: result.failed.length }));
    for (const f of result.failed.slice(0, 20)) console.error(`row ${f.row}: ${f.error}`);
    if (result.failed.length > 20) console.error(`... and ${result.failed.length - 20} more failed rows`);
    if (result.failed.length) process.exitCode = 1;
  } finally {
    await server.close();
  }
}

/** Progress on stderr (imports, seed): redrawn in place on a terminal, one line per 10% otherwise (logs, CI). */
function progressPrinter(label: string): ((p: ImportProgress) => void) & { finish(): void } {
  let lastTenth = -1;
  const tty = process.stderr.isTTY;
  const print = (p: ImportProgress) => {
    const pct = p.total ? Math.floor((p.done / p.total) * 100) : 100;
    if (tty) process.stderr.write(`\r${label}: ${p.done}/${p.total} (${pct}%)`);
    else if (Math.floor(pct / 10) > lastTenth || p.done === p.total) {
      lastTenth = Math.floor(pct / 10);
      process.stderr.write(`${label}: ${p.done}/${p.total} (${pct}%)\n`);
    }
  };
  return Object.assign(print, { finish: () => { if (tty) process.stderr.write('\n'); } });
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
