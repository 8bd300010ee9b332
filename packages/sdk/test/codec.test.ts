import { describe, expect, it } from 'vitest';
import { decodeResponse, encodeRequest, toQueryParams } from '../src/http/codec.js';

/** The pure codec (no I/O): cases the demo server cannot produce, e.g. non-finite floats. */
describe('wire codec', () => {
  it('renames caller names to REST names recursively, in filter keys and sort field names', () => {
    const encoded = encodeRequest({
      _id: 'a',
      nested: [{ _createdDate: new Date('2026-01-02T03:04:05.000Z'), keep: undefined }],
      query: { filter: { 'collections._id': { $in: ['x'] }, $or: [{ _updatedDate: { $gt: 1 } }] }, sort: [{ fieldName: 'variants._id', order: 'ASC' }] },
      ratio: Number.NaN,
      big: Number.POSITIVE_INFINITY,
      small: Number.NEGATIVE_INFINITY,
    });
    expect(JSON.parse(JSON.stringify(encoded))).toEqual({
      id: 'a',
      nested: [{ createdDate: '2026-01-02T03:04:05.000Z' }],
      query: { filter: { 'collections.id': { $in: ['x'] }, $or: [{ updatedDate: { $gt: 1 } }] }, sort: [{ fieldName: 'variants.id', order: 'ASC' }] },
      ratio: 'NaN',
      big: 'Infinity',
      small: '-Infinity',
    });
  });

  it('leaves preserved subtrees alone in both directions', () => {
    expect(encodeRequest({ dataItem: { _id: 'x', data: { _id: 'x', _owner: 'o' } } }, ['dataItem.data'])).toEqual({ dataItem: { id: 'x', data: { _id: 'x', _owner: 'o' } } });
    expect(decodeResponse({ dataItem: { id: 'x', data: { id: 'user-field' } } }, { preserve: ['dataItem.data'] })).toEqual({ dataItem: { _id: 'x', data: { id: 'user-field' } } });
  });

  it('decodes dates and non-finite floats at the declared paths only, through arrays', () => {
    const decoded = decodeResponse<Record<string, unknown>>(
      { items: [{ id: '1', createdDate: '2026-01-02T03:04:05.000Z', price: { value: 'NaN' }, other: 'NaN' }, { id: '2', createdDate: 'not a date', price: { value: '-Infinity' } }], note: '2026-01-02T03:04:05.000Z' },
      { dates: ['items.createdDate'], floats: ['items.price.value'] },
    );
    expect(decoded).toEqual({
      items: [
        { _id: '1', _createdDate: new Date('2026-01-02T03:04:05.000Z'), price: { value: Number.NaN }, other: 'NaN' },
        { _id: '2', _createdDate: 'not a date', price: { value: Number.NEGATIVE_INFINITY } },
      ],
      note: '2026-01-02T03:04:05.000Z',
    });
  });

  it('renames at every depth keeping key order, and takes no key for one of Object.prototype', () => {
    const decoded = decodeResponse<Record<string, unknown>>({ product: { name: 'n', id: 'p', variants: [{ choices: { size: 'S' }, id: 'v', updatedDate: 'u' }], stock: { inStock: true } } });
    expect(JSON.stringify(decoded)).toBe('{"product":{"name":"n","_id":"p","variants":[{"choices":{"size":"S"},"_id":"v","_updatedDate":"u"}],"stock":{"inStock":true}}}');
    expect(decodeResponse({ constructor: 1, toString: { id: 'x' } })).toEqual({ constructor: 1, toString: { _id: 'x' } });
    expect(encodeRequest({ query: { filter: { 'data.constructor': 1 }, sort: [{ fieldName: 'toString._id' }] } }))
      .toEqual({ query: { filter: { 'data.constructor': 1 }, sort: [{ fieldName: 'toString.id' }] } });
  });

  it('sends flat GET payloads as query fields and nested ones as one .r', () => {
    expect(toQueryParams({ id: 'a', fieldsets: ['FULL', 'PUBLIC'], flag: true, when: new Date('2026-01-01T00:00:00.000Z'), skip: null }).toString())
      .toBe('id=a&fieldsets=FULL&fieldsets=PUBLIC&flag=true&when=2026-01-01T00%3A00%3A00.000Z');
    const params = toQueryParams({ query: { filter: { name: 'é' } } });
    expect([...params.keys()]).toEqual(['.r']);
    expect(JSON.parse(Buffer.from(params.get('.r')!, 'base64url').toString('utf8'))).toEqual({ query: { filter: { name: 'é' } } });
    expect(params.get('.r')).not.toMatch(/[=+/]/);
  });
});
