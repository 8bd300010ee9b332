import { z } from 'zod';
import { publicRoute, route, type RouteDef } from '../../http/route.js';
import { CATALOG_LIMITS } from './schema.js';
import { createDownloadUrl, DOWNLOADS_PATH, serveSignedDownload, uploadFile } from './media-files.js';

const MEDIA_ID = z.string().regex(/^[a-f0-9]{32}$/);

/** Our extension (the platform's media manager is not in the contract): uploads and signed downloads. */
export const mediaRoutes: RouteDef[] = [
  route({
    method: 'POST', path: '/_api/vitrine/media/v1/files', access: 'elevated', tag: 'media',
    summary: 'Upload a file: raw bytes as the body, Content-Type, ?fileName= (and ?secure=true for a digital file)',
    rawBodyBytes: CATALOG_LIMITS.mediaBytes,
    request: z.object({ body: z.instanceof(Uint8Array), contentType: z.string().max(200), fileName: z.string().min(1).max(1000), secure: z.boolean().optional() }),
    handler: (ctx, input) => uploadFile(ctx, input),
  }),
  route({
    method: 'POST', path: '/_api/vitrine/media/v1/files/:id/download-url', access: 'elevated', tag: 'media',
    summary: 'A signed, expiring URL that downloads a file (the only way to a secure file)',
    request: z.object({ id: MEDIA_ID }),
    handler: (ctx, input) => createDownloadUrl(ctx, input.id),
  }),
  publicRoute({
    method: 'GET', path: `${DOWNLOADS_PATH}/:mediaId/:fileName`, raw: true, tag: 'media',
    summary: 'Bytes of a file behind a signed download URL (as an attachment)',
    request: z.object({ mediaId: MEDIA_ID, fileName: z.string().max(1000), expires: z.number().int().nonnegative(), signature: z.string().max(100) }),
    handler: (ctx, input) => serveSignedDownload(ctx, input),
  }),
];
