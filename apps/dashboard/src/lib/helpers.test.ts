import { describe, expect, it } from 'vitest';
import { VitrineError } from '@vitrine/sdk';
import { errorText } from '../session';
import { cellText, displayValue, inputKind, parseInput } from './data';
import { amountProblem, descriptionText } from '../orders/model';
import { describeCouponViolation } from '../settings/coupon-fields';
import { formatEventType } from './events';
import { formatDate } from './time';
import { parseCsv, toCsv } from './csv';
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
    // The SDK prefixes the server's message with its code ("Unauthorized: ..."); the owner sees the description alone.
    const prefixed = new VitrineError('Unauthorized: The e-mail or password is wrong', 'application', 'INVALID_CREDENTIALS', 401, 'r3', { applicationError: { code: 'INVALID_CREDENTIALS', description: 'The e-mail or password is wrong', data: {} } });
    expect(errorText(prefixed)).toBe('The e-mail or password is wrong');
  });
});

describe('event types', () => {
  it('formats fqdn/slug', () => {
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

describe('formatDate', () => {
  it('shows the time in the given zone with the zone named, and a dash for no date', () => {
    const berlin = new Intl.DateTimeFormat('en-GB', { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short', timeZone: 'Europe/Berlin' });
    expect(formatDate(new Date('2026-11-22T00:17:49Z'), berlin)).toBe('22 Nov 2026, 01:17 CET');
    expect(formatDate(null)).toBe('—');
    expect(formatDate(new Date('2026-11-22T00:17:49Z'))).toMatch(/^\d{1,2} Nov 2026, \d{2}:\d{2} \S+$/);
  });
});

describe('CSV', () => {
  it('parses quoted cells with commas, quotes and line breaks, CRLF or LF, and skips blank lines', () => {
    expect(parseCsv('\ufeffa,b\r\n"x, y","say ""hi"""\n"two\nlines",\n\n')).toEqual([['a', 'b'], ['x, y', 'say "hi"'], ['two\nlines', '']]);
  });
  it('writes what it parses back', () => {
    const rows = [['plain', 'with, comma', 'with "quote"', 'line\nbreak']];
    const text = toCsv(['a', 'b', 'c', 'd'], rows);
    expect(text).toBe('a,b,c,d\r\nplain,"with, comma","with ""quote""","line\nbreak"\r\n');
    expect(parseCsv(text)).toEqual([['a', 'b', 'c', 'd'], ...rows]);
  });
});

describe('owner wording', () => {
  it('shows a grid date in the owner zone with its label, like formatDate', () => {
    const d = new Date('2026-11-22T00:17:49.936Z');
    expect(cellText(d)).toBe(formatDate(d));
    expect(cellText('text')).toBe('text');
  });

  it('words a violation with the form labels, and errorText uses it', () => {
    const v = { field: 'specification.expirationTime', description: 'must be after startTime' };
    expect(describeCouponViolation(v)).toBe('Last day: must be after the day the coupon starts (today for a new one)');
    expect(describeCouponViolation({ field: 'name', description: 'x' })).toBeUndefined();
    const error = new VitrineError('INVALID_ARGUMENT: ...', 'validation', 'INVALID_ARGUMENT', 400, 'r1', { validationError: { fieldViolations: [v] } });
    expect(errorText(error, describeCouponViolation)).toBe('Last day: must be after the day the coupon starts (today for a new one)');
  });

  it('says why an amount cannot be sent', () => {
    expect(amountProblem('12.50', 1250, 'over')).toBeUndefined();
    expect(amountProblem('12.51', 1250, 'over')).toBe('over');
    expect(amountProblem('1.234', 1250, 'over')).toBe('Use at most two decimals.');
    expect(amountProblem('1,5', 1250, 'over')).toBe('Enter an amount in digits, like 12.50.');
    expect(amountProblem('0.00', 1250, 'over')).toBe('Enter an amount above 0.');
  });

  it('reads a line item choices from its description lines', () => {
    expect(descriptionText([
      { name: { original: 'Color' }, colorInfo: { original: 'Black', code: '#000' }, lineType: 'COLOR' },
      { name: { original: 'Size' }, plainText: { original: 'M' }, lineType: 'PLAIN_TEXT' },
    ])).toBe('Color: Black, Size: M');
    expect(descriptionText(undefined)).toBe('');
  });
});
