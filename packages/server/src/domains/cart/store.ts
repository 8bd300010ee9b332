import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Executor } from '../../storage/database.js';
import { sql } from 'kysely';
import { dialectOf, forUpdate, jsonTextField, lockForUpdate, readJson, toJson, type DialectName } from '../../storage/dialect.js';
import { allColumns, columnsOf, preparedQuery } from '../../storage/prepared.js';
import { VouchedReads } from '../../storage/vouched-reads.js';
import { STORES_APP_ID, type CartDoc, type CatalogReference, type CheckoutDoc, type StoredCart, type StoredCheckout, type StoredLine } from './model.js';
import { forgetCart, keepCart, keptCart } from './kept-carts.js';
import { listingVersionSubquery, noteListingVersion } from '../catalog/index.js';
import { pricingVersionSubquery } from './rules/store-version.js';

interface CartsTable { id: string; site_id: string; owner_key: string; doc: unknown; revision: number; created_date: string; updated_date: string }
interface CheckoutsTable {
  id: string; site_id: string; owner_key: string; cart_id: string | null; doc: unknown; completed: number; order_id: string | null;
  created_date: string; updated_date: string; completed_view: Buffer | null;
}

declare module '../../storage/schema.js' {
  interface Database {
    carts: CartsTable;
    checkouts: CheckoutsTable;
  }
}

const toCart = (r: CartsTable): StoredCart => ({
  id: r.id, ownerKey: r.owner_key, doc: withStoresAppIds(readJson<CartDoc>(r.doc)), revision: r.revision, createdDate: r.created_date, updatedDate: r.updated_date,
});

const toCheckout = (r: CheckoutsTable): StoredCheckout => ({
  id: r.id, ownerKey: r.owner_key, cartId: r.cart_id, doc: readJson<CheckoutDoc>(r.doc), completed: r.completed === 1, orderId: r.order_id,
  createdDate: r.created_date, updatedDate: r.updated_date, completedView: r.completed_view === null ? null : inflateRawSync(r.completed_view).toString('utf8'),
});

/**
 * A completed checkout's answer as stored: deflated (migrations.ts says why) at the fastest level with
 * a 4 KiB window and small state: zlib's default state (about 256 KiB, set up per call) made one
 * 9 KB answer cost about 240 us, this 37 us, for the same size; inflating reads any window.
 */
const packView = (view: string): Buffer => deflateRawSync(view, { level: 1, memLevel: 4, windowBits: 12 });

const cartByOwner = preparedQuery((db, p: { siteId: string; ownerKey: string }) =>
  db.selectFrom('carts').selectAll().where('site_id', '=', p.siteId).where('owner_key', '=', p.ownerKey));

const cartHeadByOwner = preparedQuery((db, p: { siteId: string; ownerKey: string }) =>
  db.selectFrom('carts').select(['id', 'revision']).where('site_id', '=', p.siteId).where('owner_key', '=', p.ownerKey));

/**
 * The caller's cart. Outside a transaction, a cart this process kept (kept-carts.ts) is answered when
 * the row is still at its id and revision: the read is then of those two columns only, not the
 * document's text to parse again (the largest statement of an add-to-cart of a 20-line cart).
 */
export async function findCartByOwner(db: Executor, siteId: string, ownerKey: string, lock?: DialectName): Promise<StoredCart | undefined> {
  if (lock) await lockForUpdate(db, lock, sql`SELECT id FROM carts WHERE site_id = ${siteId} AND owner_key = ${ownerKey}`);
  const kept = keptCart(db, siteId, ownerKey);
  if (kept) {
    const head = (await cartHeadByOwner.run(db, { siteId, ownerKey })).rows[0];
    if (head?.id === kept.id && head.revision === kept.revision) return kept;
  }
  return readCartRow(db, siteId, ownerKey);
}

/** The cart's head (id and revision), or null when the owner has none. */
export interface CartHead { id: string; revision: number }

/** What a cart read checks before anything else, read in one statement (outside a transaction). */
export interface CartHeads { cart: CartHead | null; listingVersion: number; pricingVersion: string }

interface HeadsRow { cart_id: string | null; revision: number | null; listing_version: number; pricing_version: string }

const headsByOwner = preparedQuery((_db, p: { siteId: string; ownerKey: string }) => sql<HeadsRow>`SELECT
  (SELECT id FROM carts WHERE site_id = ${p.siteId} AND owner_key = ${p.ownerKey}) AS cart_id,
  (SELECT revision FROM carts WHERE site_id = ${p.siteId} AND owner_key = ${p.ownerKey}) AS revision,
  ${listingVersionSubquery(p.siteId)} AS listing_version,
  ${pricingVersionSubquery(p.siteId)} AS pricing_version`);

/** Owners whose heads a handle keeps while nothing is committed (storage/vouched-reads.ts): a repeated estimate or cart read runs no statement. */
export const VOUCHED_CART_HEADS = 10_000;
const vouchedHeads = new VouchedReads<HeadsRow>(VOUCHED_CART_HEADS);

/**
 * The owner's cart head with the site's listing and pricing versions, in one statement: a cart read
 * (and an estimate) checked them one by one, three round trips on PostgreSQL and three read locks
 * taken and dropped on SQLite. One snapshot, so the three are as of the same moment.
 */
export async function readCartHeads(db: Executor, siteId: string, ownerKey: string): Promise<CartHeads> {
  // NUL cannot occur in a site id or an owner key.
  const row = await vouchedHeads.read(db, `${siteId}\u0000${ownerKey}`, async () => (await headsByOwner.run(db, { siteId, ownerKey })).rows[0]!);
  return {
    cart: row.cart_id === null ? null : { id: row.cart_id, revision: Number(row.revision) },
    listingVersion: noteListingVersion(db, siteId, Number(row.listing_version)),
    pricingVersion: row.pricing_version,
  };
}

/** The owner's cart when its head was just read (readCartHeads): the kept cart when it is at that head, else the row. */
export async function findCartAtHead(db: Executor, siteId: string, ownerKey: string, head: CartHead | null): Promise<StoredCart | undefined> {
  const kept = keptCart(db, siteId, ownerKey);
  if (head === null) {
    if (kept) forgetCart(db, siteId, ownerKey);
    return undefined;
  }
  if (kept?.id === head.id && kept.revision === head.revision) return kept;
  return readCartRow(db, siteId, ownerKey);
}

async function readCartRow(db: Executor, siteId: string, ownerKey: string): Promise<StoredCart | undefined> {
  const row = (await cartByOwner.run(db, { siteId, ownerKey })).rows[0];
  if (!row) {
    forgetCart(db, siteId, ownerKey);
    return undefined;
  }
  return keepCart(db, siteId, toCart(row));
}

const checkoutById = preparedQuery((db, p: { siteId: string; id: string }) =>
  db.selectFrom('checkouts').selectAll().where('site_id', '=', p.siteId).where('id', '=', p.id));

const checkoutByIdForUpdate = preparedQuery((db, p: { siteId: string; id: string }) =>
  sql<CheckoutsTable>`SELECT * FROM checkouts WHERE site_id = ${p.siteId} AND id = ${p.id} ${forUpdate(dialectOf(db))}`);

const cartInsert = preparedQuery((db, p: CartsTable) => db.insertInto('carts').values(columnsOf(p, allColumns<CartsTable>({
  id: true, site_id: true, owner_key: true, doc: true, revision: true, created_date: true, updated_date: true,
}))));

const checkoutInsert = preparedQuery((db, p: CheckoutsTable) => db.insertInto('checkouts').values(columnsOf(p, allColumns<CheckoutsTable>({
  id: true, site_id: true, owner_key: true, cart_id: true, doc: true, completed: true, order_id: true, created_date: true, updated_date: true, completed_view: true,
}))));

/**
 * A stored cart line leaves out its catalog reference's app id when it is the store catalog's (almost
 * every line), and reading puts it back. That keeps a 20-line cart's row under SQLite's 4 KB page
 * (about 3.3 KB instead of 4.3): a row past it spills into an overflow page, and every update of the
 * cart then wrote two or three pages instead of one (63 us a statement under the add-to-cart bench,
 * 48 without; docs/performance-log.md, twenty-fourth session).
 */
function storedLineJson(line: StoredLine): string {
  const ref = line.catalogReference;
  if (ref?.appId !== STORES_APP_ID) return JSON.stringify(line);
  const { appId: _storesApp, ...rest } = ref;
  return JSON.stringify({ ...line, catalogReference: rest });
}

/** A stored document's lines with the store catalog's app id back where it was left out (in place: `doc` is a fresh parse). */
function withStoresAppIds(doc: CartDoc): CartDoc {
  for (const line of doc.lineItems) {
    const ref = line.catalogReference as Omit<CatalogReference, 'appId'> & { appId?: string } | undefined;
    if (ref && ref.appId === undefined) {
      const { catalogItemId, ...rest } = ref;
      line.catalogReference = { catalogItemId, appId: STORES_APP_ID, ...rest };
    }
  }
  return doc;
}

/** Stored JSON of frozen lines, once per line object: a kept cart's unchanged lines are the same objects write after write (kept-carts.ts). */
const lineTexts = new WeakMap<StoredLine, string>();

function lineText(line: StoredLine): string {
  // The lookup before the frozen check (a runtime call): most lines of a write are kept ones.
  let text = lineTexts.get(line);
  if (text !== undefined) return text;
  text = storedLineJson(line);
  if (Object.isFrozen(line)) lineTexts.set(line, text);
  return text;
}

/** A cart document as stored JSON text, the lines from their kept text (`toJson` of the same document, key order aside). */
function cartDocJson(doc: CartDoc): string {
  const { lineItems, ...rest } = doc;
  const others = JSON.stringify(rest);
  return `{"lineItems":[${lineItems.map(lineText).join(',')}]${others === '{}' ? '}' : `,${others.slice(1)}`}`;
}

export async function insertCart(db: Executor, siteId: string, cart: StoredCart): Promise<void> {
  await cartInsert.run(db, {
    id: cart.id, site_id: siteId, owner_key: cart.ownerKey, doc: cartDocJson(cart.doc), revision: cart.revision, created_date: cart.createdDate, updated_date: cart.updatedDate,
  });
}

interface CartUpdate { doc: unknown; revision: number; updatedDate: string; siteId: string; id: string; expectedRevision: number }
interface CartUpdateAtVersion extends CartUpdate { listingVersion: number }

// Two statements: naming `owner_key` in SET makes SQLite rewrite the cart's (site_id, owner_key) index
// entry even when the value is the same, one more page per cart write; only a move changes the owner.
const cartUpdate = preparedQuery((db, p: CartUpdate) =>
  db.updateTable('carts').set({ doc: p.doc, revision: p.revision, updated_date: p.updatedDate })
    .where('site_id', '=', p.siteId).where('id', '=', p.id).where('revision', '=', p.expectedRevision));

const cartUpdateAtVersion = preparedQuery((db, p: CartUpdateAtVersion) =>
  db.updateTable('carts').set({ doc: p.doc, revision: p.revision, updated_date: p.updatedDate })
    .where('site_id', '=', p.siteId).where('id', '=', p.id).where('revision', '=', p.expectedRevision)
    .where(listingVersionSubquery(p.siteId), '=', p.listingVersion));

const cartMove = preparedQuery((db, p: CartUpdate & { ownerKey: string }) =>
  db.updateTable('carts').set({ doc: p.doc, revision: p.revision, updated_date: p.updatedDate, owner_key: p.ownerKey })
    .where('site_id', '=', p.siteId).where('id', '=', p.id).where('revision', '=', p.expectedRevision));

const updateOf = (siteId: string, cart: StoredCart, expectedRevision: number): CartUpdate => ({
  doc: cartDocJson(cart.doc), revision: cart.revision, updatedDate: cart.updatedDate, siteId, id: cart.id, expectedRevision,
});

/**
 * Writes the cart (same owner) when it is still at `expectedRevision` and, given `listingVersion`, the
 * site's listing version is still that one (the version its lines were resolved at: the check costs
 * the write nothing, where reading the version first was a statement of its own). False when another
 * write came first or the catalog changed since.
 */
export async function updateCart(db: Executor, siteId: string, cart: StoredCart, expectedRevision: number, listingVersion?: number): Promise<boolean> {
  const update = updateOf(siteId, cart, expectedRevision);
  const res = listingVersion === undefined ? await cartUpdate.run(db, update) : await cartUpdateAtVersion.run(db, { ...update, listingVersion });
  return Number(res.numAffectedRows) === 1;
}

/** Writes the cart with its new owner (a visitor's cart becoming a member's), as `updateCart` does. */
export async function moveCart(db: Executor, siteId: string, cart: StoredCart, expectedRevision: number): Promise<boolean> {
  return Number((await cartMove.run(db, { ...updateOf(siteId, cart, expectedRevision), ownerKey: cart.ownerKey })).numAffectedRows) === 1;
}

/**
 * Deletes a cart unless its doc names another checkout (it moved on to a newer checkout), and
 * answers the deleted cart, in one statement.
 */
export async function deleteCartUnlessMovedOn(db: Executor, dialect: DialectName, siteId: string, id: string, checkoutId: string): Promise<StoredCart | undefined> {
  const linked = jsonTextField(dialect, 'doc', 'checkoutId');
  const rows = await sql<CartsTable>`DELETE FROM carts WHERE site_id = ${siteId} AND id = ${id} AND (${linked} IS NULL OR ${linked} = ${checkoutId}) RETURNING *`.execute(db);
  const row = rows.rows[0];
  return row ? toCart(row) : undefined;
}

export async function deleteCartRow(db: Executor, siteId: string, id: string): Promise<boolean> {
  const res = await db.deleteFrom('carts').where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
}

export async function findCheckout(db: Executor, siteId: string, id: string, opts: { lock?: boolean } = {}): Promise<StoredCheckout | undefined> {
  // Locked for create-order on PostgreSQL: a second caller waits here and then reads the first one's
  // order id (the row lock and the read are one statement; SQLite's write transaction locks already).
  const row = (await (opts.lock ? checkoutByIdForUpdate : checkoutById).run(db, { siteId, id })).rows[0];
  return row ? toCheckout(row) : undefined;
}

/** The newest checkout made from a cart. */
export async function findCheckoutByCart(db: Executor, siteId: string, cartId: string): Promise<StoredCheckout | undefined> {
  const row = await db.selectFrom('checkouts').selectAll().where('site_id', '=', siteId).where('cart_id', '=', cartId)
    .orderBy('created_date', 'desc').orderBy('id', 'desc').executeTakeFirst();
  return row ? toCheckout(row) : undefined;
}

export async function insertCheckout(db: Executor, siteId: string, c: StoredCheckout): Promise<void> {
  await checkoutInsert.run(db, {
    id: c.id, site_id: siteId, owner_key: c.ownerKey, cart_id: c.cartId, doc: toJson(c.doc), completed: c.completed ? 1 : 0, order_id: c.orderId,
    created_date: c.createdDate, updated_date: c.updatedDate, completed_view: c.completedView === null ? null : packView(c.completedView),
  });
}

export async function updateCheckoutDoc(db: Executor, siteId: string, id: string, doc: CheckoutDoc, now: string): Promise<void> {
  await db.updateTable('checkouts').set({ doc: toJson(doc), updated_date: now }).where('site_id', '=', siteId).where('id', '=', id).execute();
}

/** Completes a checkout without an order (paid elsewhere), keeping its answer as of now. */
export async function setCheckoutCompleted(db: Executor, siteId: string, id: string, now: string, view: string): Promise<void> {
  await db.updateTable('checkouts').set({ completed: 1, updated_date: now, completed_view: packView(view) }).where('site_id', '=', siteId).where('id', '=', id).execute();
}

const checkoutClaim = preparedQuery((db, p: { siteId: string; id: string; orderId: string; now: string; view: Buffer }) => db.updateTable('checkouts')
  .set({ order_id: p.orderId, completed: 1, updated_date: p.now, completed_view: p.view })
  .where('site_id', '=', p.siteId).where('id', '=', p.id).where('order_id', 'is', null));

/**
 * Claims the checkout for an order and completes it with its answer as of now: sets `order_id` only
 * while none is set, so of two concurrent create-order calls exactly one wins (the other reads the
 * winner's order id). True for the winner.
 */
export async function claimCheckoutOrder(db: Executor, siteId: string, id: string, orderId: string, now: string, view: string): Promise<boolean> {
  const res = await checkoutClaim.run(db, { siteId, id, orderId, now, view: packView(view) });
  return Number(res.numAffectedRows) === 1;
}

/** Moves a visitor's open checkouts to the member who just logged in. */
export async function rekeyOpenCheckouts(db: Executor, siteId: string, from: string, to: string, memberId: string): Promise<void> {
  const rows = await db.selectFrom('checkouts').select(['id', 'doc']).where('site_id', '=', siteId).where('owner_key', '=', from).where('completed', '=', 0).execute();
  for (const r of rows) {
    const doc = readJson<CheckoutDoc>(r.doc);
    await db.updateTable('checkouts').set({ owner_key: to, doc: toJson({ ...doc, buyer: { memberId } }) }).where('site_id', '=', siteId).where('id', '=', r.id).execute();
  }
}

/** A checkout by id on any site, for the hosted page (whose URL names no site); the caller checks the capability. */
export async function findCheckoutAnySite(db: Executor, id: string): Promise<{ siteId: string; checkout: StoredCheckout } | undefined> {
  const row = await db.selectFrom('checkouts').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? { siteId: row.site_id, checkout: toCheckout(row) } : undefined;
}
