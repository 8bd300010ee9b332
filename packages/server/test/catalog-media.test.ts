import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import sharp from 'sharp';
import { asOwner, call, startTestServer, visitorTokens, type TestServer } from './harness.js';
import { memberWithToken } from './member-tokens.js';
import { createSite } from '../src/domains/sites/service.js';
import { createApiKey } from '../src/domains/identity/service.js';
import { CATALOG_LIMITS } from '../src/domains/catalog/schema.js';
import { MEDIA_LIMITS } from '../src/domains/catalog/media-image.js';
import { DOWNLOAD_URL_TTL_MS, resolveDigitalFile } from '../src/domains/catalog/media-files.js';
import type { RequestContext } from '../src/http/context.js';
import { ApiKeyStrategy, createClient, VitrineError } from '@vitrine/sdk';
import * as media from '@vitrine/sdk/media';

/** Uploads with thumbnails, media writes with real sizes, what /media serves, secure files and signed URLs. */
let t: TestServer;
let visitor: string;
let member: string;
const UPLOAD = '/_api/vitrine/media/v1/files';

beforeAll(async () => {
  t = await startTestServer();
  visitor = (await visitorTokens(t)).accessToken;
  member = (await memberWithToken(t, { loginEmail: 'media@catalog.test', profile: { nickname: 'Media' } })).token;
});
afterAll(() => t?.close());

async function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#3366cc' } }).png().toBuffer();
}

async function upload(bytes: Buffer, contentType: string, fileName: string, opts: { auth?: string; siteId?: string; secure?: boolean } = {}) {
  const url = new URL(UPLOAD, t.url);
  url.searchParams.set('fileName', fileName);
  if (opts.secure) url.searchParams.set('secure', 'true');
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': contentType, authorization: opts.auth ?? t.apiKey, 'wix-site-id': opts.siteId ?? t.site.id },
    body: new Uint8Array(bytes),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** An over-bound request on its own connection (the server answers 413 before reading it all and closes). */
function oversized(pathname: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(pathname, t.url), { method: 'POST', agent: false, headers: { ...headers, 'content-length': String(body.length) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err)));
    req.end(body);
  });
}

async function fileCount(): Promise<number> {
  const row = await t.server.deps.storage.db.selectFrom('media_files').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

async function decoded(res: Response) {
  return sharp(Buffer.from(await res.arrayBuffer())).metadata();
}

describe('upload', () => {
  it('stores a PNG with its size and WebP thumbnails that decode at the expected widths', async () => {
    const bytes = await png(1000, 500);
    const res = await upload(bytes, 'image/png', 'poster.png');
    expect(res.status).toBe(200);
    const file = res.body.file;
    expect(file).toMatchObject({ fileName: 'poster.png', mediaType: 'image', contentType: 'image/png', size: bytes.length, secure: false, width: 1000, height: 500 });
    expect(file.id).toMatch(/^[a-f0-9]{32}$/);
    expect(file.url).toBe(`${t.url}/media/${file.id}/poster.png`);
    expect(file.thumbnails).toEqual(MEDIA_LIMITS.thumbnailWidths.map((w) => ({ width: w, height: w / 2, url: `${t.url}/media/${file.id}/poster.png?w=${w}` })));

    const original = await fetch(file.url);
    expect(original.status).toBe(200);
    expect(original.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await original.arrayBuffer()).equals(bytes)).toBe(true);
    for (const w of MEDIA_LIMITS.thumbnailWidths) {
      const thumb = await fetch(`${file.url}?w=${w}`);
      expect(thumb.status).toBe(200);
      expect(thumb.headers.get('content-type')).toBe('image/webp');
      expect(thumb.headers.get('x-content-type-options')).toBe('nosniff');
      const meta = await decoded(thumb);
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', w, w / 2]);
    }
    const odd = await call(t.url, `/media/${file.id}/poster.png`, { query: { w: '300' } });
    expect(odd.status).toBe(400);
    expect(odd.body.details.validationError.fieldViolations[0]).toMatchObject({ field: 'w' });
  });

  it('never upscales: a 300 px JPEG keeps 200 and serves 300 px for the larger classes', async () => {
    const bytes = await sharp({ create: { width: 300, height: 150, channels: 3, background: '#ff0000' } }).jpeg().toBuffer();
    const res = await upload(bytes, 'image/jpeg', 'small.jpg');
    expect(res.status).toBe(200);
    expect(res.body.file).toMatchObject({ contentType: 'image/jpeg', width: 300, height: 150 });
    expect(res.body.file.thumbnails.map((x: { width: number; height: number }) => [x.width, x.height])).toEqual([[200, 100], [300, 150], [300, 150]]);
    const meta = await decoded(await fetch(`${res.body.file.url}?w=800`));
    expect([meta.width, meta.height]).toEqual([300, 150]);
  });

  it('refuses a non-image sent as image/png, and SVG, with a 400 field violation; nothing is stored', async () => {
    const before = await fileCount();
    const fake = await upload(Buffer.from('<html><script>alert(1)</script></html>'), 'image/png', 'x.png');
    expect(fake.status).toBe(400);
    expect(fake.body.details.validationError.fieldViolations).toEqual([{ field: '$body', description: 'is not a PNG, JPEG, WebP or GIF image', violatedRule: 'FORMAT', data: { declaredType: 'image/png' } }]);
    const svg = await upload(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>'), 'image/svg+xml', 'x.svg');
    expect(svg.status).toBe(400);
    const truncated = (await png(64, 64)).subarray(0, 60);
    expect((await upload(truncated, 'image/png', 't.png')).status).toBe(400);
    const empty = await upload(Buffer.alloc(0), 'image/png', 'e.png');
    expect(empty.status).toBe(400);
    const noName = await call(t.url, UPLOAD, { ...asOwner(t), body: {} });
    expect(noName.status).toBe(400);
    expect(noName.body.details.validationError.fieldViolations[0]).toMatchObject({ field: 'fileName' });
    expect((await upload(await png(8, 8), 'image/png', '\u0007bell.png')).status).toBe(400);
    expect(await fileCount()).toBe(before);
  });

  it('refuses a decompression bomb (more decoded pixels than MEDIA_LIMITS.inputPixels)', async () => {
    const side = Math.ceil(Math.sqrt(MEDIA_LIMITS.inputPixels)) + 10;
    const bomb = await sharp({ create: { width: side, height: side, channels: 3, background: '#000' } }).png({ compressionLevel: 9 }).toBuffer();
    expect(bomb.length).toBeLessThan(CATALOG_LIMITS.mediaBytes);
    const before = await fileCount();
    const res = await upload(bomb, 'image/png', 'bomb.png');
    expect(res.status).toBe(400);
    expect(res.body.details.validationError.fieldViolations[0]).toMatchObject({ field: '$body', violatedRule: 'MAX_SIZE', data: { maxPixels: MEDIA_LIMITS.inputPixels } });
    expect(await fileCount()).toBe(before);
  });

  it('answers 413 in the wire format over CATALOG_LIMITS.mediaBytes (the global JSON limit stays lower)', async () => {
    const before = await fileCount();
    const owner = { authorization: t.apiKey, 'wix-site-id': t.site.id };
    const res = await oversized(`${UPLOAD}?fileName=big.pdf`, { ...owner, 'content-type': 'application/pdf' }, Buffer.alloc(CATALOG_LIMITS.mediaBytes + 1, 1));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: `The request body is larger than ${CATALOG_LIMITS.mediaBytes} bytes`, details: { applicationError: { code: 'PAYLOAD_TOO_LARGE', description: `The request body is larger than ${CATALOG_LIMITS.mediaBytes} bytes`, data: {} } } });
    // Just under the bound is accepted although it is over the global body limit.
    expect(CATALOG_LIMITS.mediaBytes).toBeGreaterThan(t.config.bodyLimitBytes);
    const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(t.config.bodyLimitBytes + 10, 32)]);
    const ok = await upload(big, 'application/pdf', 'manual.pdf');
    expect(ok.status).toBe(200);
    expect(ok.body.file).toMatchObject({ mediaType: 'document', contentType: 'application/pdf', size: big.length });
    expect(await fileCount()).toBe(before + 1);
    // Other routes keep the global limit.
    const json = await oversized('/stores/v1/products', { ...owner, 'content-type': 'application/json' }, Buffer.from(JSON.stringify({ product: { name: 'x'.repeat(t.config.bodyLimitBytes) } })));
    expect(json.status).toBe(413);
  });

  it('is refused to visitors, members and anonymous callers', async () => {
    const bytes = await png(10, 10);
    const before = await fileCount();
    const anon = await fetch(new URL(`${UPLOAD}?fileName=a.png`, t.url), { method: 'POST', headers: { 'content-type': 'image/png' }, body: new Uint8Array(bytes) });
    expect(anon.status).toBe(401);
    const asVisitor = await upload(bytes, 'image/png', 'a.png', { auth: visitor });
    expect([asVisitor.status, asVisitor.body.details.applicationError.code]).toEqual([403, 'ELEVATED_REQUIRED']);
    const asMember = await upload(bytes, 'image/png', 'a.png', { auth: member });
    expect([asMember.status, asMember.body.details.applicationError.code]).toEqual([403, 'ELEVATED_REQUIRED']);
    expect(await fileCount()).toBe(before);
  });
});

describe('what /media serves', () => {
  it('serves non-media files as attachments with the sniffed type, never as active content', async () => {
    const html = await upload(Buffer.from('<!doctype html><script>alert(document.cookie)</script>'), 'text/html', 'page.html');
    expect(html.status).toBe(200);
    expect(html.body.file).toMatchObject({ contentType: 'application/octet-stream', mediaType: 'document' });
    const res = await fetch(html.body.file.url);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''page.html");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');

    const img = await upload(await png(20, 20), 'image/png', 'ok.png');
    const inline = await fetch(img.body.file.url);
    expect(inline.headers.get('content-disposition')).toBe("inline; filename*=UTF-8''ok.png");
    expect(inline.headers.get('content-security-policy')).toContain('sandbox');
    expect((await call(t.url, `/media/${'a'.repeat(32)}/x.png`)).status).toBe(404);
  });
});

describe('product media', () => {
  it('an uploaded id and a data: URL image give items with real sizes and thumbnail URLs (V1 and V3)', async () => {
    const up = await upload(await png(640, 480), 'image/png', 'front.png');
    const created = await call(t.url, '/stores/v1/products', { ...asOwner(t), body: { product: { name: 'Framed print', priceData: { price: 30 }, productOptions: [{ name: 'Frame', choices: [{ value: 'Oak', description: 'Oak' }] }] } } });
    expect(created.status).toBe(200);
    const id = created.body.product.id;
    const dataUrl = `data:image/jpeg;base64,${(await sharp({ create: { width: 900, height: 300, channels: 3, background: '#00ff00' } }).jpeg().toBuffer()).toString('base64')}`;
    const add = await call(t.url, `/stores/v1/products/${id}/media`, { ...asOwner(t), body: { media: [{ mediaId: up.body.file.id }, { url: dataUrl, choice: { option: 'Frame', choice: 'Oak' } }] } });
    expect(add.status).toBe(200);
    const product = (await call(t.url, `/stores-reader/v1/products/${id}`, { auth: visitor })).body.product;
    const [front, side] = product.media.items;
    expect(front).toEqual({
      id: up.body.file.id, title: 'front.png', mediaType: 'image',
      image: { url: `${t.url}/media/${up.body.file.id}/front.png`, width: 640, height: 480 },
      thumbnail: { url: `${t.url}/media/${up.body.file.id}/front.png?w=200`, width: 200, height: 150 },
    });
    expect(product.media.mainMedia).toEqual(front);
    expect(side.image).toMatchObject({ width: 900, height: 300 });
    expect(side.thumbnail).toMatchObject({ width: 200, height: 67 });
    const thumb = await decoded(await fetch(side.thumbnail.url));
    expect([thumb.width, thumb.height]).toEqual([200, 67]);
    expect(product.productOptions[0].choices[0].media.items[0]).toEqual(side);

    const bad = await call(t.url, `/stores/v1/products/${id}/media`, { ...asOwner(t), body: { media: [{ url: `data:image/png;base64,${Buffer.from('fake-png').toString('base64')}` }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.details.validationError.fieldViolations[0]).toMatchObject({ field: 'media[0]', violatedRule: 'FORMAT' });
    expect((await call(t.url, `/stores-reader/v1/products/${id}`, { auth: visitor })).body.product.media.items).toHaveLength(2);

    const v3 = await call(t.url, '/stores/v3/products', { ...asOwner(t), body: { product: { name: 'V3 print', productType: 'PHYSICAL', physicalProperties: {}, media: { itemsInfo: { items: [{ id: up.body.file.id }] } }, variantsInfo: { variants: [{ price: { actualPrice: { amount: '10' } } }] } } } });
    expect(v3.status).toBe(200);
    expect(v3.body.product.media.main.image).toMatchObject({ url: `${t.url}/media/${up.body.file.id}/front.png`, width: 640, height: 480 });
  });

  it('a secure file cannot be product media', async () => {
    const secret = await upload(Buffer.from('%PDF-1.7 secret'), 'application/pdf', 'ebook.pdf', { secure: true });
    const created = await call(t.url, '/stores/v1/products', { ...asOwner(t), body: { product: { name: 'Leaky', priceData: { price: 1 } } } });
    const add = await call(t.url, `/stores/v1/products/${created.body.product.id}/media`, { ...asOwner(t), body: { media: [{ mediaId: secret.body.file.id }] } });
    expect(add.status).toBe(400);
    expect(add.body.details.validationError.fieldViolations[0]).toMatchObject({ field: 'media[0]', description: `media ${secret.body.file.id} is a secure file` });
  });
});

describe('secure files', () => {
  it('are 404 on /media, download through a signed URL until it expires, refuse tampering and other sites', async () => {
    const content = Buffer.from('%PDF-1.7 the paid e-book');
    const up = await upload(content, 'application/pdf', 'paid book.pdf', { secure: true });
    expect(up.status).toBe(200);
    expect(up.body.file).toEqual({ id: up.body.file.id, fileName: 'paid book.pdf', mediaType: 'document', contentType: 'application/pdf', size: content.length, secure: true });
    const id = up.body.file.id;
    expect((await call(t.url, `/media/${id}/paid%20book.pdf`)).status).toBe(404);
    expect((await call(t.url, `/media/${id}/paid%20book.pdf`, { query: { w: '200' } })).status).toBe(404);

    const secureImage = await upload(await png(500, 500), 'image/png', 'art.png', { secure: true });
    expect(secureImage.body.file).toMatchObject({ width: 500, height: 500, secure: true });
    expect(secureImage.body.file.thumbnails).toBeUndefined();
    expect((await call(t.url, `/media/${secureImage.body.file.id}/art.png`, { query: { w: '200' } })).status).toBe(404);

    const started = Date.now();
    const signed = await call(t.url, `/_api/vitrine/media/v1/files/${id}/download-url`, { ...asOwner(t), body: {} });
    expect(signed.status).toBe(200);
    const expiresAt = Date.parse(signed.body.expiresAt);
    expect(expiresAt - started).toBeGreaterThanOrEqual(DOWNLOAD_URL_TTL_MS - 1000);
    expect(expiresAt - started).toBeLessThanOrEqual(DOWNLOAD_URL_TTL_MS + 1000);
    const url = new URL(signed.body.url);
    expect(url.pathname).toBe(`/_api/vitrine/media/v1/downloads/${id}/paid%20book.pdf`);
    const got = await fetch(url);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(content)).toBe(true);
    expect(got.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''paid%20book.pdf");
    expect(got.headers.get('cache-control')).toBe('private, no-store');

    const tampered = new URL(url);
    tampered.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 60_000));
    const t1 = await call(t.url, tampered.pathname + tampered.search);
    expect([t1.status, t1.body.details.applicationError.code]).toEqual([403, 'DOWNLOAD_URL_INVALID']);
    const sig = url.searchParams.get('signature')!;
    const flipped = new URL(url);
    flipped.searchParams.set('signature', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1));
    expect((await call(t.url, flipped.pathname + flipped.search)).status).toBe(403);
    const otherFile = new URL(url.toString().replace(id, secureImage.body.file.id));
    expect((await call(t.url, otherFile.pathname + otherFile.search)).status).toBe(403);
    expect((await call(t.url, url.pathname)).status).toBe(400); // no signature at all

    // The server runs in this process: move its clock past the expiry.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(expiresAt + 1000);
      const late = await call(t.url, url.pathname + url.search);
      expect([late.status, late.body.details.applicationError.code]).toEqual([403, 'DOWNLOAD_URL_EXPIRED']);
    } finally {
      vi.useRealTimers();
    }

    const db = t.server.deps.storage.db;
    const other = await createSite(db, { slug: `media-other-${Date.now()}`, name: 'Other' });
    const { apiKey } = await createApiKey(db, { siteId: other.id, name: 'other' });
    const theirs = await call(t.url, `/_api/vitrine/media/v1/files/${id}/download-url`, { auth: apiKey, siteId: other.id, body: {} });
    expect([theirs.status, theirs.body.details.applicationError.code]).toEqual([404, 'MEDIA_NOT_FOUND']);
    const asVisitor = await call(t.url, `/_api/vitrine/media/v1/files/${id}/download-url`, { auth: visitor, body: {} });
    expect(asVisitor.status).toBe(403);
  });

  it('resolveDigitalFile answers V3 SecuredMedia for secure files of the site only', async () => {
    const zip = await upload(Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(40)]), 'application/zip', 'pack.zip', { secure: true });
    const song = await upload(Buffer.concat([Buffer.from('ID3'), Buffer.alloc(40)]), 'audio/mpeg', 'song.mp3', { secure: true });
    const open = await upload(Buffer.from('%PDF-1.4'), 'application/pdf', 'public.pdf');
    const ctx = { db: t.server.deps.storage.db, site: t.site } as unknown as RequestContext; // resolveDigitalFile reads only db and site
    expect(await resolveDigitalFile(ctx, { id: zip.body.file.id })).toEqual({ id: zip.body.file.id, fileName: 'pack.zip', fileSize: '44', fileType: 'SECURE_ARCHIVE' });
    expect((await resolveDigitalFile(ctx, { id: song.body.file.id })).fileType).toBe('SECURE_MUSIC');
    await expect(resolveDigitalFile(ctx, { id: open.body.file.id })).rejects.toMatchObject({ status: 400, violations: [{ field: 'digitalFile.id', description: 'must be a secure file (upload it with secure=true)' }] });
    const otherCtx = { ...ctx, site: { ...t.site, id: 'another-site' } } as RequestContext;
    await expect(resolveDigitalFile(otherCtx, { id: zip.body.file.id })).rejects.toMatchObject({ status: 400 });
  });
});

describe('SDK media module', () => {
  it('uploads through the client, signs a download URL, and builds thumbnail URLs and srcsets', async () => {
    const client = createClient({ modules: { media }, auth: ApiKeyStrategy({ apiKey: t.apiKey, siteId: t.site.id }), host: t.url });
    const bytes = await png(1200, 600);
    const file = await client.media.uploadFile(new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'hero.png');
    expect(file).toMatchObject({ fileName: 'hero.png', width: 1200, height: 600, size: bytes.length });
    expect(media.THUMBNAIL_WIDTHS).toEqual(MEDIA_LIMITS.thumbnailWidths);
    expect(media.thumbnailUrl(file.url!, 300)).toBe(`${file.url}?w=400`);
    expect(media.thumbnailUrl(file.url!, 2000)).toBe(`${file.url}?w=800`);
    expect(media.thumbnailUrl('https://cdn.example.com/a.png', 200)).toBe('https://cdn.example.com/a.png');
    expect(media.thumbnailSrcSet({ url: file.url!, width: 1200 })).toBe(`${file.url}?w=200 200w, ${file.url}?w=400 400w, ${file.url}?w=800 800w`);
    expect(media.thumbnailSrcSet({ url: '/media/' + 'a'.repeat(32) + '/s.png', width: 300 })).toBe(`/media/${'a'.repeat(32)}/s.png?w=200 200w, /media/${'a'.repeat(32)}/s.png?w=400 300w`);
    const thumbnailed = { image: { url: file.url!, width: 1200 }, thumbnail: { url: `${file.url}?w=200` } };
    expect(media.imageAttributes(thumbnailed, 400)).toEqual({ src: `${file.url}?w=400`, srcSet: media.thumbnailSrcSet(thumbnailed.image) });
    const placeholder = { image: { url: `${t.url}/media/${'b'.repeat(32)}/p.svg`, width: 800 }, thumbnail: { url: `${t.url}/media/${'b'.repeat(32)}/p.svg` } };
    expect(media.imageAttributes(placeholder, 400)).toEqual({ src: placeholder.image.url });
    expect(media.imageAttributes(undefined, 400)).toBeUndefined();
    const meta = await decoded(await fetch(media.thumbnailUrl(file.url!, 400)));
    expect([meta.width, meta.height]).toEqual([400, 200]);

    const err = await client.media.uploadFile(new Blob(['not an image'], { type: 'image/png' }), 'x.png').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VitrineError);
    expect((err as VitrineError).details).toMatchObject({ validationError: { fieldViolations: [{ field: '$body', violatedRule: 'FORMAT' }] } });

    const secure = await client.media.uploadFile(new Uint8Array(Buffer.from('%PDF-1.7 x')), 'x.pdf', { contentType: 'application/pdf', secure: true });
    expect(secure.url).toBeUndefined();
    const { url } = await client.media.getDownloadUrl(secure.id);
    expect(Buffer.from(await (await fetch(url)).arrayBuffer()).toString()).toBe('%PDF-1.7 x');
  });
});
