import type { Context } from 'hono';
import type { IncomingMessage } from 'node:http';
import type { HttpBindings } from '@hono/node-server';

/**
 * A request header by its lower-case name. On the Node adapter it is read from Node's own parsed
 * headers: the first `c.req.header()` of a request builds a web `Headers` object from every header
 * the client sent, a measurable share of a cheap read (docs/performance-log.md). Repeated headers come
 * joined by `, ` as the web API joins them. Without Node's request (`app.request()` in tests) the
 * web API answers.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  return incoming ? nodeRequestHeader(incoming, name) : c.req.header(name);
}

/** The same from Node's request itself (the direct lane, direct-lane.ts). */
export function nodeRequestHeader(incoming: IncomingMessage, name: string): string | undefined {
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
