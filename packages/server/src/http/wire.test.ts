import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { coerceQueryFields, decodeQuery, EncodedJson, ORIGIN_CACHE_MAX, ownedBytes, parseJsonSafely, requestUrlParts, stringifyForWire } from './wire.js';
import { decimalString, int64String, wireDate, wireNumber } from './wire-schemas.js';
import { violationsFromZod } from './zod-violations.js';
import { ValidationError } from './errors.js';

describe('request URL parts', () => {
  it('gives the same origin and query as the URL parser', () => {
    const urls = [
      'http://127.0.0.1:4500/stores-reader/v1/products/abc',
      'http://localhost:80/x?y=1&y=2&z=a+b%20c',
      'https://Shop.Example:443/a/b?.r=eyJxIjoxfQ&paging.offset=3#frag',
      'http://[::1]:8080/p?q=%E2%82%AC&empty=&flag',
      'http://example.com',
      'http://example.com/?',
    ];
    for (const url of urls) {
      const parsed = new URL(url);
      const parts = requestUrlParts(url);
      expect(parts.origin).toBe(parsed.origin);
      expect([...parts.query]).toEqual([...parsed.searchParams]);
    }
  });

  it('stays correct once more origins came than it remembers', () => {
    for (let i = 0; i < ORIGIN_CACHE_MAX * 3; i++) expect(requestUrlParts(`http://h${i}.example/x`).origin).toBe(`http://h${i}.example`);
    expect(requestUrlParts('http://H1.example:80/x').origin).toBe('http://h1.example');
  });
});

describe('wire codec', () => {
  it('decodes .r payloads and dotted, repeated query fields', () => {
    const r = Buffer.from(JSON.stringify({ query: { paging: { limit: 5 } } })).toString('base64url');
    const { payload, fields } = decodeQuery(new URLSearchParams(`.r=${r}&id=a&ids=1&ids=2&paging.offset=3`));
    expect(payload).toEqual({ query: { paging: { limit: 5 } } });
    expect(fields).toEqual({ id: 'a', ids: ['1', '2'], paging: { offset: '3' } });
  });

  it('refuses a malformed .r and prototype keys in query fields', () => {
    expect(() => decodeQuery(new URLSearchParams('.r=!!!'))).toThrow(ValidationError);
    expect(() => decodeQuery(new URLSearchParams(`.r=${Buffer.from('[1]').toString('base64url')}`))).toThrow(ValidationError);
    expect(() => decodeQuery(new URLSearchParams('__proto__.x=1'))).toThrow(ValidationError);
  });

  it('coerces query text to the schema types and leaves bad values for the schema to refuse', () => {
    const schema = z.object({ limit: z.number().optional(), flag: z.boolean().optional(), ids: z.array(z.string()).optional(), name: z.string().optional() });
    expect(coerceQueryFields({ limit: '10', flag: 'true', ids: 'x', name: ['only'] }, schema)).toEqual({ limit: 10, flag: true, ids: ['x'], name: 'only' });
    expect(coerceQueryFields({ limit: 'ten', flag: 'yes' }, schema)).toEqual({ limit: 'ten', flag: 'yes' });
  });

  it('encodes dates as ISO text and non-finite numbers as strings', () => {
    const text = stringifyForWire({ at: new Date('2026-01-02T03:04:05.000Z'), a: NaN, b: Infinity, c: -Infinity, d: 1.5, e: undefined });
    expect(JSON.parse(text)).toEqual({ at: '2026-01-02T03:04:05.000Z', a: 'NaN', b: 'Infinity', c: '-Infinity', d: 1.5 });
  });

  it('drops __proto__ keys when parsing bodies', () => {
    const parsed = parseJsonSafely('{"__proto__":{"admin":true},"a":{"__proto__":{"x":1},"b":2}}') as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['a']);
    expect(parsed.a).toEqual({ b: 2 });
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('drops __proto__ keys written with escapes, and parses plain text to the same value', () => {
    const escaped = parseJsonSafely('{"\\u005f_proto__":{"admin":true},"n":"caf\\u00e9","b":[1,{"c":null}]}') as Record<string, unknown>;
    expect(Object.keys(escaped)).toEqual(['n', 'b']);
    expect(escaped).toEqual({ n: 'café', b: [1, { c: null }] });
    expect(Object.getPrototypeOf(escaped)).toBe(Object.prototype);
    const plain = '{"query":{"filter":{"price":{"$gt":5}},"paging":{"limit":20}},"name":"a_proto_b"}';
    expect(parseJsonSafely(plain)).toEqual(JSON.parse(plain));
  });
});

describe('kept answers', () => {
  /** Memory a buffer keeps alive: its whole backing store, not only its own bytes. */
  const heldBytes = (b: Buffer) => b.buffer.byteLength;

  it('keep small answers in memory of their own, not a slice of the shared pool', () => {
    const text = '{"product":{"id":"p","name":"caf\u00e9 \u2615"}}';
    const pooled = Buffer.from(text);
    expect(heldBytes(pooled)).toBe(Buffer.poolSize); // what a cache bounded by byteLength would underweigh
    for (const answer of [new EncodedJson(text), new EncodedJson(pooled)]) {
      const kept = answer.toKeep();
      expect(kept.bytes().equals(pooled)).toBe(true);
      expect(heldBytes(kept.bytes())).toBe(kept.bytes().byteLength);
      expect(kept.json).toBe(text);
    }
  });

  it('keep a buffer that is already its own as it is', () => {
    const big = Buffer.from(`"${'x'.repeat(Buffer.poolSize)}"`);
    expect(heldBytes(big)).toBe(big.byteLength);
    expect(ownedBytes(big)).toBe(big);
    expect(new EncodedJson(big).toKeep().bytes()).toBe(big);
    const slice = big.subarray(1, 10);
    expect(heldBytes(ownedBytes(slice))).toBe(9);
    expect(ownedBytes(slice).toString()).toBe('x'.repeat(9));
  });
});

describe('wire value schemas', () => {
  it('reads non-finite numbers, ISO dates, decimal strings and int64 strings', () => {
    expect(wireNumber.parse('NaN')).toBeNaN();
    expect(wireNumber.parse('-Infinity')).toBe(-Infinity);
    expect(wireDate.parse('2026-11-21T10:00:00Z').toISOString()).toBe('2026-11-21T10:00:00.000Z');
    expect(decimalString.parse('10.00')).toBe('10.00');
    expect(int64String.parse('9007199254740991')).toBe('9007199254740991');
  });

  it('turns bad values into the contract rule kinds', () => {
    const schema = z.object({ amount: decimalString, when: wireDate, big: int64String, n: wireNumber });
    const result = schema.safeParse({ amount: '1.23456', when: 'yesterday', big: '9007199254740993', n: 'nan' }, { reportInput: true });
    expect(result.success).toBe(false);
    const body = violationsFromZod(result.error!.issues).body() as { details: { validationError: { fieldViolations: { field: string; violatedRule: string }[] } } };
    expect(body.details.validationError.fieldViolations.map((v) => [v.field, v.violatedRule])).toEqual([
      ['amount', 'DECIMAL_MAX_SCALE'], ['big', 'MAX'], ['n', 'FORMAT'], ['when', 'FORMAT'],
    ]);
  });

  it('reports a missing required field as REQUIRED_FIELD and unknown strict keys as FIELD_NOT_ALLOWED', () => {
    const schema = z.strictObject({ name: z.string() });
    const result = schema.safeParse({ extra: 1 }, { reportInput: true });
    const body = violationsFromZod(result.error!.issues, 'product').body() as { details: { validationError: { fieldViolations: unknown[] } } };
    expect(body.details.validationError.fieldViolations).toEqual([
      { field: 'product.extra', description: 'is not allowed', violatedRule: 'FIELD_NOT_ALLOWED', data: {} },
      { field: 'product.name', description: 'is required', violatedRule: 'REQUIRED_FIELD', data: {} },
    ]);
  });
});
