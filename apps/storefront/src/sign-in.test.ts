import { describe, expect, it } from 'vitest';
import { returnPath } from './sign-in';

describe('returnPath (where a finished sign-in goes)', () => {
  const origin = 'http://localhost:3000';
  it('keeps the page with its query and fragment', () => {
    expect(returnPath('http://localhost:3000/products/tee?color=Blue&size=M#reviews', origin)).toBe('/products/tee?color=Blue&size=M#reviews');
    expect(returnPath('http://localhost:3000/search?q=mug', origin)).toBe('/search?q=mug');
  });
  it('goes home for another origin, a missing or a malformed address', () => {
    expect(returnPath('https://evil.test/products/tee?x=1', origin)).toBe('/');
    expect(returnPath(undefined, origin)).toBe('/');
    expect(returnPath('not a url', origin)).toBe('/');
  });
});
