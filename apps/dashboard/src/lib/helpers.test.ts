import { describe, expect, it } from 'vitest';
import { VitrineError } from '@vitrine/sdk';
import { errorText } from '../session';
import { displayValue, inputKind, parseInput } from './data';
import { formatEventType, parseEventTypes } from './events';
import { variantLabel } from './catalog';

/** Pure helpers of the dashboard's API layer (the pages are covered by the browser tests in e2e/). */
describe('errorText', () => {
  it('lists field violations, else the message', () => {
    const validation = new VitrineError('INVALID_ARGUMENT: ...', 'validation', 'INVALID_ARGUMENT', 400, 'r1', {
      validationError: { fieldViolations: [{ field: 'product.name', description: 'must not be empty' }, { field: 'product.priceData.price', description: 'must be at least 0' }] },
    });
    expect(errorText(validation)).toBe('product.name: must not be empty; product.priceData.price: must be at least 0');
    const app = new VitrineError('Member x not found', 'application', 'MEMBER_NOT_FOUND', 404, 'r2', { applicationError: { code: 'MEMBER_NOT_FOUND', description: 'Member x not found', data: {} } });
    expect(errorText(app)).toBe('Member x not found');
    expect(errorText(new Error('tags: must be JSON'))).toBe('tags: must be JSON');
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
    expect(displayValue(new Date('2026-11-22T00:17:49.936Z'))).toBe('2026-11-22 00:17:49');
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
    expect(parseInput({ key: 'd', type: 'DATETIME' }, '2026-01-02T03:04:00Z')).toEqual(new Date('2026-01-02T03:04:00.000Z'));
    expect(parseInput({ key: 'tags', type: 'ARRAY_STRING' }, '["x"]')).toEqual(['x']);
    expect(() => parseInput({ key: 'tags', type: 'ARRAY_STRING' }, 'not json')).toThrow('tags: must be JSON');
  });
});

describe('variantLabel', () => {
  it('names choices by their option descriptions', () => {
    const product = { productOptions: [{ optionType: 'color' as const, name: 'Color', choices: [{ value: '#000000', description: 'Black', inStock: true, visible: true }] }] };
    expect(variantLabel(product, { choices: { Size: 'M', Color: '#000000' } })).toBe('Size: M, Color: Black');
  });
});
