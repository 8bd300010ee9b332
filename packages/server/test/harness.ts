import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../src/config.js';
import { createLogger, createServer, type Server } from '../src/server.js';
import { dropSchema } from '../src/storage/database.js';
import { createApiKey } from '../src/domains/identity/service.js';
import { DEMO_CLIENT_ID, ensureDemoStore } from '../src/cli/demo-store.js';
import type { Site } from '../src/domains/sites/service.js';

/**
 * A real server on a real port over a real database: a fresh SQLite file, or, when DATABASE_URL is
 * set, a fresh PostgreSQL schema dropped at the end. Each test file starts its own.
 */
export interface TestServer {
  url: string;
  server: Server;
  config: Config;
  site: Site;
  clientId: string;
  /** An owner API key of the demo site (send as Authorization with wix-site-id). */
  apiKey: string;
  close(): Promise<void>;
}

function testRunId(): string | undefined {
  try {
    return inject('testRunId');
  } catch {
    return undefined; // not inside a Vitest worker
  }
}

export async function startTestServer(overrides: Partial<Config> = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-test-'));
  const databaseUrl = process.env.DATABASE_URL || undefined;
  // Inside a Vitest run the schemas are dropped by global-setup.ts when the run ends (dropping them
  // mid-run races with other files' migrations); elsewhere (benchmarks) each server drops its own.
  const runId = testRunId();
  const schema = databaseUrl ? `t_${runId ?? 'solo'}_${randomBytes(6).toString('hex')}` : undefined;
  const config: Config = {
    ...loadConfig({}),
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl,
    databaseSchema: schema,
    logLevel: process.env.TEST_LOG_LEVEL ?? 'silent',
    // Tests post webhooks to receivers on 127.0.0.1: SSRF guard off here, on in events-ssrf.test.ts.
    webhooks: { allowPrivateTargets: true },
    // Tests read the outbox to see which events a write recorded: keep every event here; the default
    // (only events someone receives) is tested in events-recording.test.ts and the query budgets.
    events: { ...loadConfig({}).events, record: 'all' },
    ...overrides,
  };
  const server = await createServer(config, createLogger(config.logLevel));
  const { site } = await ensureDemoStore(server.deps, server.deps.log);
  const { apiKey } = await createApiKey(server.deps.storage.db, { siteId: site.id, name: 'test' });
  const port = await server.listen();
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    config,
    site,
    clientId: DEMO_CLIENT_ID,
    apiKey,
    async close() {
      await server.close();
      if (databaseUrl && schema && !runId) await dropSchema(databaseUrl, schema);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ApiResponse<T = any> { // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  method?: string;
  /** Raw Authorization value (access token or API key). */
  auth?: string;
  siteId?: string;
  body?: unknown;
  /** Query fields; objects are sent as one `.r` parameter. */
  query?: Record<string, string | string[]>;
  dotR?: unknown;
  headers?: Record<string, string>;
  rawBody?: string;
}

/** One HTTP call with fetch, returning status, headers and parsed JSON (or text). */
export async function call<T = any>(base: string, pathname: string, options: CallOptions = {}): Promise<ApiResponse<T>> { // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  const url = new URL(pathname, base);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(key, v);
  }
  if (options.dotR !== undefined) url.searchParams.set('.r', Buffer.from(JSON.stringify(options.dotR)).toString('base64url'));
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.auth) headers.authorization = options.auth;
  if (options.siteId) headers['wix-site-id'] = options.siteId;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(url, { method: options.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body: parsed as T };
}

/** Anonymous visitor tokens for the demo client. */
export async function visitorTokens(t: TestServer): Promise<{ accessToken: string; refreshToken: string }> {
  const res = await call(t.url, '/oauth2/token', { body: { clientId: t.clientId, grantType: 'anonymous' } });
  if (res.status !== 200) throw new Error(`anonymous grant failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { accessToken: res.body.access_token, refreshToken: res.body.refresh_token };
}

/** Owner auth options for `call`. */
export function asOwner(t: TestServer): Pick<CallOptions, 'auth' | 'siteId'> {
  return { auth: t.apiKey, siteId: t.site.id };
}
