import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import { ApplicationError, violation } from './errors.js';
import { jsonTextMayHoldBadText } from './text-guard.js';
import { JsonTooDeepError, parseJsonSafely } from './wire.js';

/**
 * The request body, at most `maxBytes` long, else a 413. On the Node adapter it is read from Node's
 * request stream: reading it through the web API (`c.req.text()`) first builds a fetch `Request` with
 * a web stream around that stream, about a tenth of a small JSON write's CPU (docs/performance-log.md).
 * Without Node's request (`app.request()` in tests) the web API reads it.
 */
export async function readBodyBytes(c: Context, maxBytes: number): Promise<Buffer> {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  if (!incoming) {
    const bytes = await c.req.arrayBuffer();
    if (bytes.byteLength > maxBytes) throw payloadTooLarge(maxBytes);
    return Buffer.from(bytes);
  }
  return readIncomingBody(incoming, maxBytes);
}

/** The body of Node's request, at most `maxBytes` long, else a 413 (the direct lane reads it so too). */
export async function readIncomingBody(incoming: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = incoming.headers['content-length'];
  // Node's parser holds a body to its declared length, so a declared length over the bound needs no reading.
  if (declared !== undefined && incoming.headers['transfer-encoding'] === undefined && Number(declared) > maxBytes) throw payloadTooLarge(maxBytes);
  if (incoming.readableEnded) return Buffer.alloc(0);
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (error?: Error) => {
      incoming.off('data', onData).off('end', onEnd).off('error', done).off('close', onClose);
      if (error) reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        incoming.pause();
        done(payloadTooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onClose = () => done(new Error('The client closed the connection before the request body ended'));
    incoming.on('data', onData).on('end', onEnd).on('error', done).on('close', onClose);
  });
}

/** `readBodyBytes` as UTF-8 text (JSON bodies). */
export async function readBodyText(c: Context, maxBytes: number): Promise<string> {
  return (await readBodyBytes(c, maxBytes)).toString('utf8');
}

/**
 * A JSON request body's object (an empty or blank body is `{}`), else a 400; and whether its text may
 * hold what the text guard refuses (text-guard.ts), so the parsed object needs the guard's walk.
 */
export function jsonBodyOf(text: string): { body: Record<string, unknown>; needsScan: boolean } {
  if (text.trim() === '') return { body: {}, needsScan: false };
  let parsed: unknown;
  try {
    parsed = parseJsonSafely(text);
  } catch (error) {
    if (error instanceof JsonTooDeepError) throw violation('$body', error.message, 'MAX');
    throw violation('$body', 'must be valid JSON', 'FORMAT');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw violation('$body', 'must be a JSON object', 'FORMAT');
  return { body: parsed as Record<string, unknown>, needsScan: jsonTextMayHoldBadText(text) };
}

/** The answer to a body over its bound; the rest of it is left unread, so the connection is closed. */
export function payloadTooLarge(maxBytes: number): ApplicationError {
  const error = new ApplicationError(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${maxBytes} bytes`);
  // Say so, or a client reuses the socket and its next request fails.
  error.headers.Connection = 'close';
  return error;
}
