import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../../deep-freeze.js';
import { stringifyForWire } from '../../http/wire.js';
import type { ResolvedLine, StoredCart } from './model.js';
import { cartObject, cartOnWire, encodeCart } from './present.js';

const line = (id: string, quantity: number, weight: number): ResolvedLine => ({
  id, quantity, productName: `Mug ${id}`, price: '12.50', fullPrice: '15.00', descriptionLines: [],
  availability: { status: 'AVAILABLE' }, physicalProperties: { weight, shippable: true }, itemType: 'PHYSICAL',
  paymentOption: 'FULL_PAYMENT_ONLINE', customLineItem: false,
});

const stored: StoredCart = {
  id: 'cart-1', ownerKey: 'v:1', revision: 3, createdDate: '2026-11-27T10:00:00.000Z', updatedDate: '2026-11-27T10:05:00.000Z',
  doc: {
    lineItems: [], buyer: { visitorId: 'v1' }, email: null, buyerNote: 'ring twice', buyerLanguage: null, contactInfo: null, selectedShippingOption: null,
    businessLocationId: null, overrideCheckoutUrl: null, coupon: { id: 'c1', code: 'WELCOME10' }, merchantDiscounts: [], checkoutId: null,
  },
};

describe('encodeCart', () => {
  it('gives the text stringifyForWire gives, for kept (frozen) and fresh lines alike, again and again', () => {
    const kept = deepFreeze(line('a', 2, 0.5));
    const lines = [kept, line('b', 1, 1.25), kept];
    const cart = cartOnWire(stored, lines, 'USD');
    const text = stringifyForWire(cartObject(cart));
    expect(encodeCart(cart).toString()).toBe(text);
    expect(encodeCart(cart).toString()).toBe(text); // the kept line's bytes are now reused
    expect(encodeCart(cart, '{"cart":', '}').toString()).toBe(`{"cart":${text}}`);
    expect(JSON.parse(text).lineItems.map((l: { id: string; quantity: number }) => `${l.id}x${l.quantity}`)).toEqual(['ax2', 'bx1', 'ax2']);
  });

  it('encodes a kept (frozen) line once, and a fresh line every time', () => {
    let reads = 0;
    const counted = (id: string) => Object.defineProperty(line(id, 1, 1), 'productName', { get: () => { reads++; return `Mug ${id}`; }, enumerable: true });
    const kept = deepFreeze(counted('k'));
    reads = 0; // freezing read it too
    const cart = cartOnWire(stored, [kept], 'USD');
    const first = encodeCart(cart).toString();
    const once = reads;
    expect(once).toBeGreaterThan(0);
    expect(encodeCart(cart).toString()).toBe(first);
    expect(reads).toBe(once);
    // Another currency is encoded anew (and then kept for it).
    expect(encodeCart(cartOnWire(stored, [kept], 'EUR')).toString()).toContain('€');
    expect(reads).toBe(2 * once);

    reads = 0;
    const fresh = cartOnWire(stored, [counted('f')], 'USD');
    encodeCart(fresh);
    encodeCart(fresh);
    expect(reads).toBe(2 * once);
  });

  it('keeps the bytes of text beyond ASCII whole (a kept line is measured in bytes, not characters)', () => {
    const kept = deepFreeze({ ...line('d', 1, 1), productName: 'Tasse café ☕ 𝄞' });
    const cart = cartOnWire(stored, [kept, line('e', 2, 1)], 'USD');
    const text = stringifyForWire(cartObject(cart));
    for (let i = 0; i < 2; i++) {
      const bytes = encodeCart(cart);
      expect(bytes.length).toBe(Buffer.byteLength(text));
      expect(bytes.toString()).toBe(text);
    }
    expect(JSON.parse(text).lineItems[0].productName.original).toBe('Tasse café ☕ 𝄞');
  });

  it('encodes a fresh line as it is now, and non-finite numbers the wire way', () => {
    const fresh = line('c', 1, 1);
    const cart = cartOnWire(stored, [fresh], 'USD');
    expect(encodeCart(cart).toString()).toBe(stringifyForWire(cartObject(cart)));
    fresh.quantity = 7;
    fresh.physicalProperties = { weight: Number.NaN, shippable: true };
    const text = encodeCart(cart).toString();
    expect(text).toBe(stringifyForWire(cartObject(cart)));
    expect(JSON.parse(text).lineItems[0]).toMatchObject({ quantity: 7, physicalProperties: { weight: 'NaN' } });
  });
});
