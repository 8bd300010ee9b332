/**
 * The captcha HMAC key is read from the database once per handle and kept. A read that failed
 * (here: its table out of the way, as a database mid-restart would fail it) is not kept: the next
 * challenge reads again and succeeds, and every challenge after it is signed with the stored key.
 */
import { createHmac } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from './harness.js';
import type { CaptchaChallenge } from '../src/domains/identity/captcha.js';

let t: TestServer;
beforeAll(async () => { t = await startTestServer(); });
afterAll(async () => { await t?.close(); });

const challenge = () => call(t.url, '/_api/iam/captcha/v1/challenge?mode=visible', { method: 'GET' });

it('a captcha key read that failed is made again by the next challenge', async () => {
  const db = t.server.deps.storage.db;
  await sql`ALTER TABLE identity_secrets RENAME TO identity_secrets_away`.execute(db);
  try {
    expect((await challenge()).status).toBe(500);
  } finally {
    await sql`ALTER TABLE identity_secrets_away RENAME TO identity_secrets`.execute(db);
  }
  const stored = await db.selectFrom('identity_secrets').select('value').where('name', '=', 'captcha_hmac').executeTakeFirst();
  expect(stored).toBeUndefined();
  for (let i = 0; i < 2; i++) {
    const res = await challenge();
    expect(res.status).toBe(200);
    const c = res.body as CaptchaChallenge;
    const key = (await db.selectFrom('identity_secrets').select('value').where('name', '=', 'captcha_hmac').executeTakeFirstOrThrow()).value;
    expect(c.signature).toBe(createHmac('sha256', key).update(c.challenge).digest('hex'));
  }
});
