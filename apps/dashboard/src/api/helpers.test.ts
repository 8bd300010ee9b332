import { describe, expect, it } from 'vitest';
import { ApiError, dotR } from '../session';
import { displayValue, inputKind, parseInput } from './data';
import { formatEventType, parseEventTypes } from './events';
import { variantLabel, type Product } from './catalog';

/** Pure helpers of the dashboard's API layer (the pages are covered by the browser tests in e2e/). */
describe('ApiError', () => {
  it('lists field violations, else the message, else the status', () => {
    expect(new ApiError(400, { message: 'INVALID_ARGUMENT', details: { validationError: { fieldViolations: [{ field: 'product.name', description: 'must not be empty' }, { field: 'product.priceData.price', description: 'must be at least 0' }] } } }).message)
      .toBe('product.name: must not be empty; product.priceData.price: must be at least 0');
    expect(new ApiError(404, { message: 'Member x not found', details: { applicationError: { code: 'MEMBER_NOT_FOUND' } } }).message).toBe('Member x not found');
    expect(new ApiError(502, {}).message).toBe('HTTP 502');
  });
});

describe('dotR', () => {
  it('is unpadded base64url of the UTF-8 JSON', () => {
    const query = { fieldsets: ['FULL'], note: 'é?>' };
    const encoded = dotR(query);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'))).toEqual(query);
  });
});

describe('event types', () => {
  it('parses fqdn/slug by commas and lines; a bare fqdn means every slug', () => {
    expect(parseEventTypes('wix.members.v1.member/created,\n wix.ecom.v1.order/* \n\nwix.stores.v1.product')).toEqual([
      { entityFqdn: 'wix.members.v1.member', slug: 'created' },
      { entityFqdn: 'wix.ecom.v1.order', slug: '*' },
      { entityFqdn: 'wix.stores.v1.product', slug: '*' },
    ]);
    expect(parseEventTypes('  ')).toEqual([]);
    expect(formatEventType({ entityFqdn: 'a.b', slug: 'updated' })).toBe('a.b/updated');
  });
});

describe('data values', () => {
  it('displays dates, objects and scalars on one line', () => {
    expect(displayValue({ $date: '2026-11-22T00:17:49.936Z' })).toBe('2026-11-22 00:17:49');
    expect(displayValue(['a', 'b'])).toBe('["a","b"]');
    expect(displayValue(3.5)).toBe('3.5');
    expect(displayValue(null)).toBe('');
  });

  it('parses form input by field type', () => {
    expect(inputKind('DATE')).toBe('text');
    expect(inputKind('ARRAY_STRING')).toBe('json');
    expect(parseInput({ key: 'n', type: 'NUMBER' }, '35')).toBe(35);
    expect(parseInput({ key: 'n', type: 'NUMBER' }, '')).toBeUndefined();
    expect(parseInput({ key: 'v', type: 'BOOLEAN' }, true)).toBe(true);
    expect(parseInput({ key: 'v', type: 'BOOLEAN' }, '')).toBe(false);
    expect(parseInput({ key: 'd', type: 'DATETIME' }, '2026-01-02T03:04:00Z')).toEqual({ $date: '2026-01-02T03:04:00.000Z' });
    expect(parseInput({ key: 'tags', type: 'ARRAY_STRING' }, '["x"]')).toEqual(['x']);
    expect(() => parseInput({ key: 'tags', type: 'ARRAY_STRING' }, 'not json')).toThrow('tags: must be JSON');
  });
});

describe('variantLabel', () => {
  it('names choices by their option descriptions', () => {
    const product = { productOptions: [{ name: 'Color', choices: [{ value: '#000000', description: 'Black' }] }] } as unknown as Product;
    expect(variantLabel(product, { choices: { Size: 'M', Color: '#000000' } })).toBe('Size: M, Color: Black');
  });
});
