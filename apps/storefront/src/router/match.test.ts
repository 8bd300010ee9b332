import { describe, expect, it } from 'vitest';
import { matchPath } from './match';
import { hrefOf, isExternal, resolveTo } from './location';

describe('matchPath', () => {
  it('matches static paths, the home page and trailing slashes', () => {
    expect(matchPath('', '/')).toEqual({});
    expect(matchPath('search', '/search')).toEqual({});
    expect(matchPath('search', '/search/')).toEqual({});
    expect(matchPath('search', '/Search')).toEqual({});
    expect(matchPath('search', '/')).toBeNull();
    expect(matchPath('', '/search')).toBeNull();
    expect(matchPath('account', '/account/orders/1')).toBeNull();
  });

  it('reads params, decoded', () => {
    expect(matchPath('collections/:slug', '/collections/tea')).toEqual({ slug: 'tea' });
    expect(matchPath('product-page/:slug', '/product-page/caf%C3%A9%20cup')).toEqual({ slug: 'café cup' });
    expect(matchPath('account/orders/:id', '/account/orders/ab-12')).toEqual({ id: 'ab-12' });
    expect(matchPath('collections/:slug', '/collections')).toBeNull();
    expect(matchPath('collections/:slug', '/collections/tea/extra')).toBeNull();
  });

  it('keeps a malformed escape as typed', () => {
    expect(matchPath('product-page/:slug', '/product-page/100%')).toEqual({ slug: '100%' });
  });

  it('matches anything with *', () => {
    expect(matchPath('*', '/no/such/page')).toEqual({});
  });
});

describe('resolveTo', () => {
  const from = { pathname: '/search', search: '?q=tea', hash: '#top' };
  it('reads absolute and relative strings', () => {
    expect(resolveTo('/product-page/mug?Size=M#reviews', from)).toEqual({ pathname: '/product-page/mug', search: '?Size=M', hash: '#reviews' });
    expect(resolveTo('?page=2', from)).toEqual({ pathname: '/search', search: '?page=2', hash: '' });
    expect(resolveTo('cart', { pathname: '/account/orders', search: '', hash: '' })).toEqual({ pathname: '/account/cart', search: '', hash: '' });
  });

  it('fills an object target from the current path only', () => {
    expect(resolveTo({ search: 'page=2' }, from)).toEqual({ pathname: '/search', search: '?page=2', hash: '' });
    expect(resolveTo({ pathname: '/collections/tea', search: '' }, from)).toEqual({ pathname: '/collections/tea', search: '', hash: '' });
    expect(resolveTo({ search: '?' }, from)).toEqual({ pathname: '/search', search: '', hash: '' });
    expect(hrefOf(resolveTo({ search: '?brand=Brewline', hash: 'x' }, from))).toBe('/search?brand=Brewline#x');
  });

  it('tells external targets apart', () => {
    expect(isExternal('https://example.com/x')).toBe(true);
    expect(isExternal('//example.com/x')).toBe(true);
    expect(isExternal('mailto:shop@example.com')).toBe(true);
    expect(isExternal('/search')).toBe(false);
    expect(isExternal({ pathname: '/search' })).toBe(false);
  });
});
