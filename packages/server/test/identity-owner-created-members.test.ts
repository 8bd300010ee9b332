import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type TestServer } from './harness.js';
import { listIdentityMails as listMail } from '../src/domains/identity/mailer.js';
import { updateSite } from '../src/domains/sites/service.js';
import { as, STRONG_PASSWORD, uniqueEmail, visitor, type Actor } from './identity-helpers.js';
import { startMailbox, type Mailbox } from './mailbox.js';
import { ownerCreateMember } from './member-tokens.js';

/**
 * A member the owner creates (members API) has no identity and so no password. Its holder claims it
 * through the password-reset link sent to its login e-mail (the link proves the mailbox); until then
 * registering the e-mail answers as for any existing account, and a reset request answers as for any
 * e-mail, known or not. Real SMTP, real HTTP.
 */
let t: TestServer;
let mail: Mailbox;

beforeAll(async () => {
  mail = await startMailbox();
  t = await startTestServer({ smtpUrl: mail.url, trustedProxies: ['127.0.0.1'] });
});
afterAll(async () => {
  await t?.close();
  await mail?.close();
});

const AUTH = '/_api/iam/authentication/v2';
const RECOVERY = '/_api/iam/recovery/v1';

async function sendReset(v: Actor, email: string): Promise<void> {
  const sent = await call(t.url, `${RECOVERY}/send-email`, as(v, { email }));
  expect([sent.status, sent.body]).toEqual([200, {}]);
}

/** The recovery token of the newest mail to `email` whose subject matches. */
async function resetToken(email: string, subject: RegExp): Promise<string> {
  const text = (await mail.waitFor(email, subject)).text;
  return decodeURIComponent(/recoveryToken=(\S+)/.exec(text)![1]!);
}

async function login(v: Actor, email: string, password: string) {
  return call(t.url, `${AUTH}/login`, as(v, { loginId: { email }, password }));
}

/** Waits until every recovery-mail job has run (the mail of a reset is sent by one). */
async function recoveryJobsDone(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const rows = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM jobs WHERE kind = 'identity.recovery-email' AND status NOT IN ('SUCCEEDED', 'FAILED')`.execute(t.server.deps.storage.db);
    if (Number(rows.rows[0]!.n) === 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('recovery-mail jobs did not finish');
}

describe('members the owner created', () => {
  it('are claimed through the reset link: a password, a verified e-mail, the same member id', async () => {
    const email = uniqueEmail('claim');
    const member = await ownerCreateMember(t, { loginEmail: email, profile: { nickname: 'Claimed' } });
    const v = await visitor(t);

    // Before: no password to log in with, and the e-mail is taken for registration (-19995, as for any account).
    expect((await login(v, email, STRONG_PASSWORD)).body.details.applicationError.code).toBe('-19976');
    const reg = await call(t.url, `${AUTH}/register`, as(v, { loginId: { email }, password: STRONG_PASSWORD }));
    expect([reg.status, reg.body.details.applicationError.code]).toEqual([409, '-19995']);

    await sendReset(v, email);
    const recoveryToken = await resetToken(email, /Choose your password/);
    const rec = await call(t.url, `${RECOVERY}/recover`, as(v, { recoveryToken, password: STRONG_PASSWORD }));
    expect(rec.status, JSON.stringify(rec.body)).toBe(200);
    expect(rec.body.state).toBe('SUCCESS');
    expect(rec.body.identity.id).toBe(member.id);
    expect(rec.body.identity.email).toEqual({ address: email.toLowerCase(), isVerified: true });

    const again = await login(await visitor(t), email, STRONG_PASSWORD);
    expect([again.body.state, again.body.identity.id]).toEqual(['SUCCESS', member.id]);
    const after = await call(t.url, `/members/v1/members/${member.id}`, { ...asOwner(t), query: { fieldsets: 'FULL' } });
    expect(after.body.member).toMatchObject({ id: member.id, loginEmail: email.toLowerCase(), loginEmailVerified: true, profile: { nickname: 'Claimed' } });
    expect(after.body.member.lastLoginDate).toEqual(expect.any(String));

    // A second reset link is an ordinary reset now.
    await sendReset(v, email);
    expect(await resetToken(email, /Reset your password/)).toEqual(expect.any(String));
  });

  it('a pending member claimed waits for the owner\'s approval, then logs in', async () => {
    const email = uniqueEmail('pending');
    const member = await ownerCreateMember(t, { loginEmail: email, status: 'PENDING' });
    const v = await visitor(t);
    await sendReset(v, email);
    const rec = await call(t.url, `${RECOVERY}/recover`, as(v, { recoveryToken: await resetToken(email, /Choose your password/), password: STRONG_PASSWORD }));
    expect(rec.body.state).toBe('REQUIRE_OWNER_APPROVAL');
    expect(rec.body.sessionToken).toBeUndefined();
    expect((await login(v, email, STRONG_PASSWORD)).body.state).toBe('REQUIRE_OWNER_APPROVAL');
    expect((await call(t.url, `/members/v1/members/${member.id}/approve`, { ...asOwner(t), body: {} })).status).toBe(200);
    expect((await login(v, email, STRONG_PASSWORD)).body.state).toBe('SUCCESS');
  });

  it('a blocked member gets no link, and an unused link creates nothing', async () => {
    const blockedEmail = uniqueEmail('blocked');
    const blocked = await ownerCreateMember(t, { loginEmail: blockedEmail });
    expect((await call(t.url, `/members/v1/members/${blocked.id}/block`, { ...asOwner(t), body: {} })).status).toBe(200);
    const unusedEmail = uniqueEmail('unused');
    await ownerCreateMember(t, { loginEmail: unusedEmail });
    const v = await visitor(t);
    await sendReset(v, blockedEmail);
    await sendReset(v, unusedEmail);
    await recoveryJobsDone();
    expect(await listMail(t.server.deps.storage.db, t.site.id, blockedEmail.toLowerCase())).toEqual([]);
    expect(await listMail(t.server.deps.storage.db, t.site.id, unusedEmail.toLowerCase())).toHaveLength(1);
    // The link was sent but not used: still no identity, so logging in fails as for an unknown e-mail.
    expect((await login(v, unusedEmail, STRONG_PASSWORD)).body.details.applicationError.code).toBe('-19976');
  });

  it('with e-mail verification on, registering a member\'s e-mail looks like a new registration and tells the holder', async () => {
    await updateSite(t.server.deps.storage.db, t.site.id, { settings: { requireEmailVerification: true } });
    try {
      const email = uniqueEmail('quiet');
      await ownerCreateMember(t, { loginEmail: email });
      const reg = await call(t.url, `${AUTH}/register`, as(await visitor(t), { loginId: { email }, password: STRONG_PASSWORD }));
      expect(reg.status).toBe(200);
      expect(reg.body.state).toBe('REQUIRE_EMAIL_VERIFICATION');
      expect(reg.body.stateToken).toEqual(expect.any(String));
      expect((await mail.waitFor(email, /Someone tried to register/)).text).toContain('forgot password');
    } finally {
      await updateSite(t.server.deps.storage.db, t.site.id, { settings: { requireEmailVerification: false } });
    }
  });

  it('the owner\'s activation e-mail invites the member to choose a password', async () => {
    const email = uniqueEmail('invited');
    const member = await ownerCreateMember(t, { loginEmail: email });
    const sent = await call(t.url, `${RECOVERY}/activation-email`, { ...asOwner(t), body: { identityId: member.id } });
    expect([sent.status, sent.body]).toEqual([200, {}]);
    const v = await visitor(t);
    const rec = await call(t.url, `${RECOVERY}/recover`, as(v, { recoveryToken: await resetToken(email, /Activate your account/), password: STRONG_PASSWORD }));
    expect([rec.body.state, rec.body.identity.id]).toEqual(['SUCCESS', member.id]);
    // Once it has a password, the same owner action mails a reset of it, not an invitation.
    expect((await call(t.url, `${RECOVERY}/activation-email`, { ...asOwner(t), body: { identityId: member.id } })).status).toBe(200);
    const again = await mail.waitFor(email, /Reset your password/);
    expect(again.text).toContain('choose a new password');
    // A blocked member is not invited (as if it did not exist).
    const blocked = await ownerCreateMember(t, { loginEmail: uniqueEmail('noinvite') });
    expect((await call(t.url, `/members/v1/members/${blocked.id}/block`, { ...asOwner(t), body: {} })).status).toBe(200);
    const refused = await call(t.url, `${RECOVERY}/activation-email`, { ...asOwner(t), body: { identityId: blocked.id } });
    expect([refused.status, refused.body.details.applicationError.code]).toEqual([404, 'IDENTITY_NOT_FOUND']);
  });

  it('sign-on by an elevated caller claims the member at once', async () => {
    const email = uniqueEmail('signon');
    const member = await ownerCreateMember(t, { loginEmail: email });
    const res = await call(t.url, `${AUTH}/sign-on`, { ...asOwner(t), body: { loginId: { email }, verifyEmail: true } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.identity.id).toBe(member.id);
    expect(res.body.sessionToken).toEqual(expect.any(String));
  });
});
