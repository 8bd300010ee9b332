import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { asOwner, call, startTestServer, type TestServer } from '../packages/server/test/harness.js';
import { memberWithToken, ownerCreateMember } from '../packages/server/test/member-tokens.js';
import { listIdentityMails } from '../packages/server/src/domains/identity/mailer.js';
import { launchBrowser } from './browser.js';
import { openSection, signedInPage } from './dashboard-helpers.js';

/** Owner dashboard, members: list, status filter, search, paging, detail actions, delete; reports. */
let t: TestServer;
let browser: Browser;
let page: Page;
const ids: Record<string, string> = {};
const FILLERS = 24;

beforeAll(async () => {
  t = await startTestServer();
  const reporters: { id: string; token: string }[] = [];
  for (let i = 1; i <= FILLERS; i++) {
    const email = `fill-${String(i).padStart(2, '0')}@shop.test`;
    if (i <= 2) reporters.push(await memberWithToken(t, { loginEmail: email, privacyStatus: 'PUBLIC' }));
    else await ownerCreateMember(t, { loginEmail: email });
  }
  ids.ann = (await ownerCreateMember(t, { loginEmail: 'ann@shop.test', status: 'PENDING', contact: { firstName: 'Ann', lastName: 'Lee' }, profile: { nickname: 'annie' } })).id;
  ids.bob = (await ownerCreateMember(t, { loginEmail: 'bob@shop.test', privacyStatus: 'PUBLIC', contact: { firstName: 'Bob' } })).id;
  ids.cat = (await ownerCreateMember(t, { loginEmail: 'cat@shop.test' })).id;
  ids.dan = (await ownerCreateMember(t, { loginEmail: 'dan@shop.test', privacyStatus: 'PUBLIC' })).id;
  for (const [reporter, memberId, reason, details] of [[reporters[0]!, ids.bob, 'SPAM', 'sells watches'], [reporters[1]!, ids.dan, 'HARASSMENT', 'rude replies']] as const) {
    const res = await call(t.url, '/members/v1/reports', { auth: reporter.token, body: { memberId, reason, details } });
    expect(res.status).toBe(200);
  }
  browser = await launchBrowser();
  page = await signedInPage(browser, t);
  await openSection(page, 'Members', 'Members');
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const emails = () => page.getByTestId('member-row').locator('td:first-child').allTextContents();
async function member(id: string) {
  const res = await call(t.url, `/members/v1/members/${id}`, { ...asOwner(t), query: { fieldsets: 'FULL' } });
  return res;
}

describe('members', () => {
  it('lists members newest first with paging, a status filter and search', async () => {
    await expect.poll(() => page.getByTestId('member-total').textContent()).toBe('28 members');
    // Newest first; members created within one millisecond may come in either order, so compare as sets.
    expect((await emails()).slice(0, 4).sort()).toEqual(['ann@shop.test', 'bob@shop.test', 'cat@shop.test', 'dan@shop.test']);
    expect(await page.getByTestId('pager-range').textContent()).toBe('1–25 of 28');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(async () => (await emails()).sort()).toEqual(['fill-01@shop.test', 'fill-02@shop.test', 'fill-03@shop.test']);
    expect(await page.getByTestId('pager-range').textContent()).toBe('26–28 of 28');

    await page.getByLabel('Status').selectOption('PENDING');
    await expect.poll(emails).toEqual(['ann@shop.test']);
    expect(await page.getByTestId('member-row').textContent()).toContain('Ann Lee');
    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('Search members').fill('bob');
    await expect.poll(emails).toEqual(['bob@shop.test']);
    await page.getByLabel('Search members').fill('nobody-here');
    await expect.poll(() => page.getByTestId('empty').textContent()).toBe('No member matches.');
    await page.getByLabel('Search members').fill('');
  });

  it('approves a pending member from the detail drawer', async () => {
    await page.getByRole('button', { name: 'ann@shop.test' }).click();
    const drawer = page.getByRole('dialog', { name: 'ann@shop.test' });
    await expect.poll(() => drawer.getByTestId('member-detail').textContent()).toContain('StatusPENDING');
    expect(await drawer.getByTestId('member-detail').textContent()).toContain('Nicknameannie');
    await expect.poll(() => drawer.getByTestId('member-detail').textContent()).toContain('Open reports0');
    await drawer.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => drawer.getByTestId('member-detail').textContent()).toContain('StatusAPPROVED');
    expect(await drawer.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect((await member(ids.ann!)).body.member.status).toBe('APPROVED');
    // Ann was created by the owner and has no password: the drawer mails her a link to choose one.
    await drawer.getByRole('button', { name: 'Send password e-mail' }).click();
    await expect.poll(() => drawer.getByRole('status').textContent()).toContain('ann@shop.test can choose a password');
    await expect.poll(async () => (await listIdentityMails(t.server.deps.storage.db, t.site.id, 'ann@shop.test')).map((m) => m.subject)).toEqual(['Activate your account']);
    await drawer.getByRole('button', { name: 'Close' }).click();
  });

  it("shows a member's orders in the drawer, each linking to its order page; an order's customer link opens the member", async () => {
    const made = await call(t.url, '/ecom/v1/orders', {
      ...asOwner(t),
      body: { order: { lineItems: [{ productName: { original: 'Tote bag' }, quantity: 1, price: { amount: '12.00' } }], buyerInfo: { email: 'cat@shop.test', memberId: ids.cat } } },
    });
    expect(made.status).toBe(200);
    await page.getByRole('button', { name: 'cat@shop.test' }).click();
    const drawer = page.getByRole('dialog', { name: 'cat@shop.test' });
    const orders = drawer.getByRole('region', { name: 'Member orders' });
    await expect.poll(() => orders.getByTestId('member-order').count()).toBe(1);
    expect(await orders.getByTestId('member-order').textContent()).toContain(`#${made.body.order.number}`);
    await orders.getByRole('link', { name: `#${made.body.order.number}` }).click();
    await page.getByRole('heading', { name: `Order #${made.body.order.number}` }).waitFor();
    await page.getByRole('region', { name: 'Customer' }).getByRole('link', { name: 'Profile' }).click();
    const reopened = page.getByRole('dialog', { name: 'cat@shop.test' });
    await expect.poll(() => reopened.getByTestId('member-detail').textContent()).toContain('Member id');
    await reopened.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('heading', { name: 'Members', exact: true }).waitFor();
  });

  it('blocks, mutes and unmutes a member', async () => {
    await page.getByRole('button', { name: 'bob@shop.test' }).click();
    const drawer = page.getByRole('dialog', { name: 'bob@shop.test' });
    await expect.poll(() => drawer.getByTestId('member-detail').textContent()).toContain('Open reports1');
    await drawer.getByRole('button', { name: 'Block' }).click();
    // Blocking asks first; Cancel changes nothing.
    await page.getByRole('dialog', { name: 'Block member' }).getByRole('button', { name: 'Cancel' }).click();
    expect((await member(ids.bob!)).body.member.status).not.toBe('BLOCKED');
    await drawer.getByRole('button', { name: 'Block' }).click();
    await page.getByRole('dialog', { name: 'Block member' }).getByRole('button', { name: 'Block member' }).click();
    await expect.poll(() => drawer.getByTestId('member-detail').textContent()).toContain('StatusBLOCKED');
    expect((await member(ids.bob!)).body.member.status).toBe('BLOCKED');
    await drawer.getByRole('button', { name: 'Mute' }).click();
    await page.getByRole('dialog', { name: 'Mute member' }).getByRole('button', { name: 'Mute member' }).click();
    await expect.poll(() => drawer.getByTestId('member-detail').textContent()).toContain('ActivityMUTED');
    expect((await member(ids.bob!)).body.member.activityStatus).toBe('MUTED');
    await drawer.getByRole('button', { name: 'Unmute' }).click();
    await expect.poll(() => drawer.getByTestId('member-detail').textContent()).toContain('ActivityACTIVE');
    expect((await member(ids.bob!)).body.member.activityStatus).toBe('ACTIVE');
    await drawer.getByRole('button', { name: 'Close' }).click();
    await page.getByLabel('Status').selectOption('BLOCKED');
    await expect.poll(emails).toEqual(['bob@shop.test']);
    await page.getByLabel('Status').selectOption('');
  });

  it('deletes a member only after confirmation', async () => {
    await page.getByRole('button', { name: 'cat@shop.test' }).click();
    const drawer = page.getByRole('dialog', { name: 'cat@shop.test' });
    await drawer.getByRole('button', { name: 'Delete member' }).click();
    await page.getByRole('dialog', { name: 'Delete member' }).getByRole('button', { name: 'Cancel' }).click();
    expect((await member(ids.cat!)).status).toBe(200);
    await drawer.getByRole('button', { name: 'Delete member' }).click();
    // Nothing reads the deleted member again (a 404 in the console).
    const missing: string[] = [];
    const on404 = (r: { status(): number; url(): string }) => { if (r.status() === 404) missing.push(new URL(r.url()).pathname); };
    page.on('response', on404);
    await page.getByRole('dialog', { name: 'Delete member' }).getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => page.getByTestId('member-total').textContent()).toBe('27 members');
    await page.waitForLoadState('networkidle');
    page.off('response', on404);
    expect(missing).toEqual([]);
    expect((await member(ids.cat!)).status).toBe(404);
    expect(await emails()).not.toContain('cat@shop.test');
  });
});

describe('reports', () => {
  const reportRows = () => page.getByTestId('report-row').allTextContents();

  it('lists open reports with member e-mails and resolves one with a mute', async () => {
    await openSection(page, 'Reports', 'Member reports');
    // The e-mails appear once the reported and reporting members are loaded.
    await expect.poll(async () => (await reportRows()).sort()).toEqual([
      expect.stringMatching(/^bob@shop\.testSPAMsells watchesfill-01@shop\.test/),
      expect.stringMatching(/^dan@shop\.testHARASSMENTrude repliesfill-02@shop\.test/),
    ]);

    await page.getByRole('button', { name: 'Resolve report on dan@shop.test' }).click();
    const dialog = page.getByRole('dialog', { name: 'Resolve report' });
    await dialog.getByLabel('Mute the reported member').check();
    await dialog.getByLabel('Note').fill('warned by mail');
    await dialog.getByRole('button', { name: 'Resolve report' }).click();
    await expect.poll(reportRows).toEqual([expect.stringMatching(/^bob@shop\.testSPAMsells watchesfill-01@shop\.test/)]);

    const resolved = await call(t.url, '/members/v1/reports', { ...asOwner(t), query: { status: 'RESOLVED' } });
    expect(resolved.body.reports).toEqual([expect.objectContaining({ memberId: ids.dan, status: 'RESOLVED', resolution: { muted: true, note: 'warned by mail' } })]);
    expect((await member(ids.dan!)).body.member.activityStatus).toBe('MUTED');

    await page.getByLabel('Report status').selectOption('RESOLVED');
    await expect.poll(reportRows).toEqual([expect.stringMatching(/^dan@shop\.testHARASSMENTrude repliesfill-02@shop\.test.*RESOLVEDmutedwarned by mail$/)]);
  });
});

describe('members by filter', () => {
  it('approves every pending member as a job after confirmation and shows its progress to the end', async () => {
    const pending = [];
    for (const name of ['pend-1', 'pend-2', 'pend-3']) pending.push((await ownerCreateMember(t, { loginEmail: `${name}@shop.test`, status: 'PENDING' })).id);
    await openSection(page, 'Members', 'Members');
    await page.getByLabel('Status').selectOption('PENDING');
    await expect.poll(async () => (await emails()).sort()).toEqual(['pend-1@shop.test', 'pend-2@shop.test', 'pend-3@shop.test']);
    await page.getByRole('button', { name: 'Approve all PENDING members' }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve 3 members' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await member(pending[0]!)).body.member.status).toBe('PENDING');
    await page.getByRole('button', { name: 'Approve all PENDING members' }).click();
    await dialog.getByRole('button', { name: 'Approve 3 members' }).click();
    await expect.poll(() => page.getByTestId('bulk-job').getByRole('status').textContent(), { timeout: 15_000 }).toBe('Done: 3 succeeded, 0 failed');
    for (const id of pending) expect((await member(id)).body.member.status).toBe('APPROVED');
    await expect.poll(() => page.getByTestId('empty').textContent()).toBe('No member matches.');
    await page.screenshot({ path: 'e2e/artifacts/members.png', fullPage: true });
    await page.getByLabel('Status').selectOption('');
  });
});
