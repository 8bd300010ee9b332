import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

/**
 * One webhook POST over node:http(s). Unlike fetch, it takes a `lookup` for the connection, so the
 * SSRF guard (target.ts) resolves and checks the name and the socket connects to exactly the checked
 * addresses. Redirects are not followed; no connection is pooled (each delivery connects afresh,
 * through the guard).
 */

export interface PostAnswer {
  status: number;
  retryAfter: string | null;
  /** The first `excerptMax` characters of the answer (best effort). */
  excerpt: string | null;
}

export interface PostOptions {
  signal: AbortSignal;
  lookup: LookupFunction;
  excerptMax: number;
}

export function postWebhook(url: URL, body: string, headers: Record<string, string>, options: PostOptions): Promise<PostAnswer> {
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<PostAnswer>((resolve, reject) => {
    const req = transport.request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup: options.lookup,
      signal: options.signal,
      agent: false,
    }, (res) => {
      const retryAfter = res.headers['retry-after'] ?? null;
      let text = '';
      let settled = false;
      const done = (excerpt: string | null) => {
        if (settled) return;
        settled = true;
        res.destroy();
        resolve({ status: res.statusCode ?? 0, retryAfter, excerpt });
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (text.length >= options.excerptMax) done(text.slice(0, options.excerptMax));
      });
      res.on('end', () => done(text.slice(0, options.excerptMax)));
      // The status is known: a body cut short (or an abort while reading it) only loses the excerpt.
      res.on('error', () => done(text ? text.slice(0, options.excerptMax) : null));
      res.on('aborted', () => done(text ? text.slice(0, options.excerptMax) : null));
    });
    req.on('error', reject);
    req.end(body);
  });
}
