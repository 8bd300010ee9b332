import { randomBytes } from 'node:crypto';
import { type Kysely, type Migration } from 'kysely';
import { dialectOf } from '../../storage/dialect.js';

/**
 * Uploads with thumbnails and secure (digital) files (docs/catalog-media.md): `media_files.secure`
 * (never served by the public /media route), `media_thumbnails` (WebP sizes of uploaded images), and
 * the HMAC key of signed download URLs in `catalog_secrets`. Spread into `catalogMigrations`.
 */
export const mediaMigrations: Record<string, Migration> = {
  '0008_media_thumbnails': {
    async up(db: Kysely<any>) { // eslint-disable-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
      const dialect = dialectOf(db);
      await db.schema.alterTable('media_files').addColumn('secure', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema
        .createTable('media_thumbnails')
        .addColumn('media_id', 'text', (c) => c.notNull().references('media_files.id').onDelete('cascade'))
        // The size class asked for (MEDIA_LIMITS.thumbnailWidths); width is the real one (never upscaled).
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('bytes', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
        .addPrimaryKeyConstraint('media_thumbnails_pk', ['media_id', 'size'])
        .execute();
      await db.insertInto('catalog_secrets').values({ name: 'media-download', value: randomBytes(32).toString('base64url') }).execute();
    },
  },
};
