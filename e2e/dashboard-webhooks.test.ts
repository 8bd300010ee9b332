import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { asOwner, call, startTestServer, type TestServer } from '../packages/server/test/harness.js';
import { FAST_EVENTS, Receiver } from '../packages/server/test/events-support.js';
import { ownerCreateMember } from '../packages/server/test/member-tokens.js';
import { launchBrowser } from './browser.js';
import { openSection, signedInPage } from './dashboard-helpers.js';
import { EMITTED_EVENT_TYPES } from '../packages/server/src/domains/events/event-types.js';

/** Owner dashboard, events: webhook subscriptions, the secret shown once, delivery log, redeliver; the mailbox. */
let t: TestServer;
let browser: Browser;
let page: Page;
let receiver: Receiver;

beforeAll(async () => {
  t = await startTestServer({ events: FAST_EVENTS });
  receiver = await new Receiver(() => 200).start();
  browser = await launchBrowser();
  page = await signedInPage(browser, t);
});
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await t?.close();
});

const subscriptions = async () => (await call(t.url, '/webhooks/v1/subscriptions', asOwner(t))).body.subscriptions as { id: string; url: string; status: string; secretHint: string }[];

describe('webhooks', () => {
  let secret = '';

  it('refuses a bad URL with the server violation and creates nothing', async () => {
    await openSection(page, 'Webhooks', 'Webhooks');
    await expect.poll(() => page.getByTestId('empty').textContent()).toBe('No webhook subscriptions yet.');
    await page.getByLabel('Endpoint URL').fill('ftp://example.com/hook');
    await page.getByRole('group', { name: 'Event types' }).getByLabel('Member created').check();
    await page.getByRole('button', { name: 'Create subscription' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('subscription.url: must be an absolute http(s) URL without credentials');
    expect(await subscriptions()).toEqual([]);
  });

  it('creates a subscription and shows its signing secret once', async () => {
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    // Event types come from the server's list: only real ones can be picked.
    const picker = page.getByRole('group', { name: 'Event types' });
    expect(await picker.getByRole('checkbox').count()).toBe(EMITTED_EVENT_TYPES.length);
    if (!(await picker.getByLabel('Member created').isChecked())) await picker.getByLabel('Member created').check();
    await page.getByLabel('Description').fill('CRM sync');
    await page.getByRole('button', { name: 'Create subscription' }).click();
    secret = (await page.getByTestId('webhook-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{20,}$/);
    const [sub] = await subscriptions();
    expect(sub).toMatchObject({ url: receiver.url, status: 'ACTIVE', secretHint: `…${secret.slice(-4)}` });
    await expect.poll(() => page.getByTestId('subscription-row').allTextContents())
      .toEqual([expect.stringMatching(new RegExp(`^${receiver.url.replace(/[.]/g, '\\.')}wix\\.members\\.v1\\.member/createdACTIVE…${secret.slice(-4)}0`))]);

    await page.getByRole('button', { name: 'I have saved it' }).click();
    expect(await page.getByTestId('webhook-secret').count()).toBe(0);
    await page.reload();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByTestId('subscription-row').waitFor();
    expect(await page.content()).not.toContain(secret);
  });

  it('the shown secret verifies real deliveries; the log lists them and redelivers', async () => {
    receiver.secret = secret;
    await ownerCreateMember(t, { loginEmail: 'ann@hooks.test', contact: { firstName: 'Ann' } });
    await expect.poll(() => receiver.accepted.size, { timeout: 10_000 }).toBe(1);
    expect(receiver.badSignatures).toEqual([]);
    const [eventId] = [...receiver.accepted.keys()];

    await page.getByRole('link', { name: `Deliveries of ${receiver.url}` }).click();
    await page.getByRole('heading', { name: 'Delivery log' }).waitFor();
    const rows = () => page.getByTestId('delivery-row').allTextContents();
    await expect.poll(rows).toEqual([expect.stringMatching(/^wix\.members\.v1\.member\/created[0-9a-f-]{36}SUCCEEDED1200.*Redeliver$/)]);
    await page.getByRole('button', { name: /^Redeliver / }).click();
    await page.getByText('Redelivery queued.').waitFor();
    await expect.poll(rows, { timeout: 10_000 }).toEqual([
      expect.stringMatching(/SUCCEEDEDredelivery1200/),
      expect.stringMatching(/SUCCEEDED1200/),
    ]);
    expect(receiver.acceptCounts.get(eventId!)).toBe(2);
    const [sub] = await subscriptions();
    const log = await call(t.url, `/webhooks/v1/subscriptions/${sub!.id}/deliveries`, asOwner(t));
    expect(log.body.deliveries.map((d: { eventId: string; status: string }) => [d.eventId, d.status])).toEqual([[eventId, 'SUCCEEDED'], [eventId, 'SUCCEEDED']]);
    expect(log.body.deliveries[0].redeliveryOf).toBe(log.body.deliveries[1].id);

    await page.getByRole('button', { name: `Attempts of ${log.body.deliveries[1].id}` }).click();
    const drawer = page.getByRole('dialog', { name: 'Delivery' });
    await expect.poll(() => drawer.getByTestId('attempt-row').allTextContents()).toEqual([expect.stringMatching(/^1.* ms200answer 200$/)]);
    await drawer.getByRole('button', { name: 'Close' }).click();

    await page.getByLabel('Delivery status').selectOption('FAILED');
    await expect.poll(() => page.getByTestId('empty').textContent()).toBe('No deliveries yet.');
  });

  it('disables, re-enables and deletes (after confirmation) a subscription', async () => {
    await openSection(page, 'Webhooks', 'Webhooks');
    await page.getByRole('button', { name: `Disable ${receiver.url}` }).click();
    await page.getByRole('dialog', { name: 'Disable subscription' }).getByRole('button', { name: 'Disable subscription' }).click();
    await page.getByRole('button', { name: `Enable ${receiver.url}` }).waitFor();
    expect((await subscriptions())[0]!.status).toBe('DISABLED');
    await page.getByRole('button', { name: `Enable ${receiver.url}` }).click();
    await page.getByRole('button', { name: `Disable ${receiver.url}` }).waitFor();
    expect((await subscriptions())[0]!.status).toBe('ACTIVE');

    await page.getByRole('button', { name: `Delete ${receiver.url}` }).click();
    await page.getByRole('dialog', { name: 'Delete subscription' }).getByRole('button', { name: 'Cancel' }).click();
    expect(await subscriptions()).toHaveLength(1);
    await page.getByRole('button', { name: `Delete ${receiver.url}` }).click();
    await page.getByRole('dialog', { name: 'Delete subscription' }).getByRole('button', { name: 'Delete subscription' }).click();
    await expect.poll(() => page.getByTestId('empty').textContent()).toBe('No webhook subscriptions yet.');
    expect(await subscriptions()).toEqual([]);
  });
});

describe('mailbox', () => {
  it('lists notification mails and previews their HTML only inside a sandboxed iframe', async () => {
    await openSection(page, 'Mailbox', 'Mailbox');
    await expect.poll(() => page.getByTestId('mail-row').allTextContents())
      .toEqual([expect.stringMatching(/^STOREDann@hooks\.testWelcome to Vitrine Demo Storemember-welcome/)]);
    await page.getByLabel('Mail status').selectOption('SENT');
    await expect.poll(() => page.getByTestId('empty').textContent()).toBe('The mailbox is empty.');
    await page.getByLabel('Mail status').selectOption('STORED');
    await page.getByRole('button', { name: 'Welcome to Vitrine Demo Store' }).click();

    const frame = page.getByTitle('Mail preview');
    expect(await frame.getAttribute('sandbox')).toBe('');
    expect(await frame.getAttribute('srcdoc')).toContain('<p>Hi Ann,</p>');
    expect(await page.frameLocator('iframe[title="Mail preview"]').locator('h2').textContent()).toBe('Welcome to Vitrine Demo Store');
    // The mail's own markup is nowhere in the dashboard's DOM, only in the iframe document.
    expect(await page.locator('body').innerText()).not.toContain('your account at');
  });
});
