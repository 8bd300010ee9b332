import { describe, expect, it } from 'vitest';
import { KeptLines, type LineSource } from './kept-lines.js';

const product = { id: 'p1' };
const source = (over: Partial<LineSource> = {}): LineSource => ({ product, quantity: 1, reference: '{"catalogItemId":"p1"}', currency: 'USD', origin: 'https://shop.test', ...over });

describe('KeptLines', () => {
  it('makes a line again when anything it was made from differs', () => {
    const kept = new KeptLines<string>(10);
    let made = 0;
    const make = () => `made ${++made}`;
    expect(kept.get('line', source(), make)).toBe('made 1');
    expect(kept.get('line', source(), make)).toBe('made 1');
    // A product object read again (its document changed) is another object, even with equal contents.
    expect(kept.get('line', source({ product: { id: 'p1' } }), make)).toBe('made 2');
    expect(kept.get('line', source({ quantity: 2 }), make)).toBe('made 3');
    expect(kept.get('line', source({ reference: '{"catalogItemId":"p1","options":{"variantId":"v2"}}' }), make)).toBe('made 4');
    expect(kept.get('line', source({ currency: 'EUR' }), make)).toBe('made 5');
    expect(kept.get('line', source({ origin: 'https://other.test' }), make)).toBe('made 6');
    expect(kept.size).toBe(1);
  });

  it('hands the value before to make when only the quantity differs', () => {
    const kept = new KeptLines<string>(10);
    const seen: (string | undefined)[] = [];
    const make = (tag: string) => (before?: string) => { seen.push(before); return tag; };
    kept.get('line', source(), make('q1'));
    kept.get('line', source({ quantity: 3 }), make('q3'));
    kept.get('line', source({ quantity: 4, currency: 'EUR' }), make('q4 EUR'));
    const readAgain = { id: 'p1' };
    kept.get('line', source({ quantity: 4, currency: 'EUR', product: readAgain }), make('q4 read again'));
    kept.get('other', source({ quantity: 2 }), make('other'));
    expect(seen).toEqual([undefined, 'q1', undefined, undefined, undefined]);
    expect(kept.get('line', source({ quantity: 4, currency: 'EUR', product: readAgain }), make('never'))).toBe('q4 read again');
  });

  it('holds at most its bound, dropping the line used longest ago', () => {
    const kept = new KeptLines<string>(2);
    kept.get('a', source(), () => 'a1');
    kept.get('b', source(), () => 'b1');
    expect(kept.get('a', source(), () => 'a2')).toBe('a1'); // a is now the most recent
    kept.get('c', source(), () => 'c1'); // drops b
    expect(kept.size).toBe(2);
    expect(kept.get('a', source(), () => 'a3')).toBe('a1');
    expect(kept.get('b', source(), () => 'b2')).toBe('b2');
  });
});
