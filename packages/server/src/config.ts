import path from 'node:path';
import { envInt } from './env.js';
import { loadEventsSettings, type EventsSettings } from './domains/events/settings.js';
import { loadJobsSettings, type JobsSettings } from './jobs/settings.js';
import { loadAbandonedCheckoutSettings, type AbandonedCheckoutSettings } from './domains/cart/abandoned/settings.js';
import { loadBackInStockSettings, type BackInStockSettings } from './domains/cart/back-in-stock/settings.js';

/** Everything the server reads from its environment, parsed once at start. */
export interface Config {
  port: number;
  host: string;
  /** Folder for the SQLite file and uploaded media when no DATABASE_URL is set. */
  dataDir: string;
  /** postgres://... selects PostgreSQL; empty means the embedded SQLite file. */
  databaseUrl: string | undefined;
  /** DATABASE_READ_URL: a streaming replica of DATABASE_URL that answers plain reads (storage/read-routing.ts). */
  databaseReadUrl?: string | undefined;
  /** PostgreSQL schema to use (tests give each run its own). */
  databaseSchema: string | undefined;
  /** DATABASE_NAMED_STATEMENTS=off: no named prepared statements on PostgreSQL (storage/named-statements.ts). */
  databaseNamedStatements?: boolean;
  logLevel: string;
  /** Largest accepted request body, in bytes. */
  bodyLimitBytes: number;
  /** Origin the server is reachable at, used in hosted-page and media URLs; derived from the request when unset. */
  publicUrl: string | undefined;
  smtpUrl: string | undefined;
  /** Proxies whose X-Forwarded-For we believe (exact IPs). */
  trustedProxies: string[];
  /** Allowed browser origins; '*' answers any origin without credentials. */
  corsOrigins: string[];
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  /** PostgreSQL statement timeout, in milliseconds. */
  statementTimeoutMs: number;
  /** SQLite page cache per process, in MiB; storage/database.ts SQLITE_CACHE_MB_DEFAULT when unset. */
  sqliteCacheMb: number | undefined;
  /** Job runner tunables (jobs/settings.ts). */
  jobs: JobsSettings;
  /** Outbox worker, webhook and mail tunables (domains/events/settings.ts). */
  events: EventsSettings;
  /**
   * Test mode: count SQL statements per request and answer the count in the `x-vitrine-sql-statements`
   * header (query budgets, test/query-budgets.test.ts). VITRINE_COUNT_QUERIES=true; never in production.
   */
  countQueries: boolean;
  /** Test-only: named points where a service throws on purpose (proves all-or-nothing writes); never set in production. */
  failpoints?: readonly string[];
  /** When a checkout counts as abandoned and how often that is checked (domains/cart/abandoned/settings.ts). */
  abandonedCheckouts: AbandonedCheckoutSettings;
  /** How often back-in-stock requests follow their mails' outcome (domains/cart/back-in-stock/settings.ts). */
  backInStock: BackInStockSettings;
  webhooks: {
    /** Webhook URLs may point at private, loopback and link-local addresses (SSRF guard off; docs/events.md). */
    allowPrivateTargets: boolean;
  };
}


function list(value: string | undefined, fallback: string[]): string[] {
  if (!value) return fallback;
  return value.split(',').map((s) => s.trim()).filter(Boolean);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: envInt(env, 'PORT', 3000),
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    databaseReadUrl: env.DATABASE_READ_URL || undefined,
    databaseSchema: env.DATABASE_SCHEMA || undefined,
    databaseNamedStatements: env.DATABASE_NAMED_STATEMENTS !== 'off',
    logLevel: env.LOG_LEVEL ?? 'info',
    bodyLimitBytes: envInt(env, 'BODY_LIMIT_BYTES', 1024 * 1024),
    publicUrl: env.PUBLIC_URL?.replace(/\/$/, '') || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    trustedProxies: list(env.TRUSTED_PROXIES, []),
    corsOrigins: list(env.CORS_ORIGINS, ['*']),
    accessTokenTtlSeconds: envInt(env, 'ACCESS_TOKEN_TTL_SECONDS', 10 * 60),
    refreshTokenTtlDays: envInt(env, 'REFRESH_TOKEN_TTL_DAYS', 90),
    statementTimeoutMs: envInt(env, 'STATEMENT_TIMEOUT_MS', 10_000),
    sqliteCacheMb: env.SQLITE_CACHE_MB ? Math.max(1, envInt(env, 'SQLITE_CACHE_MB', 1)) : undefined,
    jobs: loadJobsSettings(env),
    events: loadEventsSettings(env),
    countQueries: env.VITRINE_COUNT_QUERIES === 'true',
    abandonedCheckouts: loadAbandonedCheckoutSettings(env),
    backInStock: loadBackInStockSettings(env),
    webhooks: { allowPrivateTargets: env.VITRINE_WEBHOOKS_ALLOW_PRIVATE === 'true' },
  };
}
