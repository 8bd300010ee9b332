/**
 * The headers every answer of a request carries (request id, CORS), kept as a plain object and
 * written into the API's responses when they are built. Why not set them afterwards on
 * `c.res.headers`: on the Node adapter, touching a response's headers turns its plain header object
 * into a web `Headers` (and `c.header()`/`c.body()` with several headers does the same), which cost
 * a measurable share of a cheap read (docs/performance-log.md). Responses built elsewhere (static
 * files, raw handlers) still get the headers afterwards.
 */
export interface RequestFrame {
  readonly headers: Readonly<Record<string, string>>;
  /** True once a response was built with the frame's headers. */
  sent: boolean;
}

export const REQUEST_ID_HEADER = 'x-wix-request-id';
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function openFrame(requestId: string, corsHeaders: Readonly<Record<string, string>>): RequestFrame {
  return { headers: { [REQUEST_ID_HEADER]: requestId, ...corsHeaders }, sent: false };
}

/** A response carrying the frame's headers, then `extra` (later names win). */
export function frameResponse(frame: RequestFrame, status: number, body: string | Uint8Array<ArrayBuffer> | null, extra?: Readonly<Record<string, string>>): Response {
  frame.sent = true;
  return new Response(body, { status, headers: extra ? { ...frame.headers, ...extra } : frame.headers });
}

/** A JSON answer carrying the frame's headers: its text, or that text's UTF-8 bytes (a kept answer's). */
export function frameJson(frame: RequestFrame, status: number, text: string | Uint8Array<ArrayBuffer>, extra?: Readonly<Record<string, string>>): Response {
  return frameResponse(frame, status, text, extra ? { 'content-type': JSON_CONTENT_TYPE, ...extra } : JSON_HEADERS);
}
const JSON_HEADERS = Object.freeze({ 'content-type': JSON_CONTENT_TYPE });

/** Adds the frame's headers to a response built without them; `vary` is appended to what the response varies on. */
export function applyFrameHeaders(frame: RequestFrame, headers: Headers): void {
  for (const [name, value] of Object.entries(frame.headers)) {
    if (name === 'vary') headers.append(name, value);
    else headers.set(name, value);
  }
}
