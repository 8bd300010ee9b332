import { describe, expect, it } from 'vitest';
import { clientAssets, type Manifest } from './client-assets';

const manifest: Manifest = {
  'src/entry-client.tsx': { file: 'assets/entry.js', css: ['assets/entry.css'], imports: ['_framework.js', '_router.js'] },
  '_framework.js': { file: 'assets/framework.js' },
  '_router.js': { file: 'assets/router.js', imports: ['_framework.js'] },
  '_card.js': { file: 'assets/card.js', imports: ['_router.js'] },
  'src/pages/HomePage.tsx': { file: 'assets/HomePage.js', imports: ['_card.js', '_framework.js'] },
  'src/pages/CartPage.tsx': { file: 'assets/CartPage.js', css: ['assets/cart.css'], imports: ['_router.js'] },
};

describe('clientAssets', () => {
  const assetsOf = clientAssets(manifest);

  it('announces the entry and every chunk it imports, however deep', () => {
    expect(assetsOf()).toEqual({ script: '/assets/entry.js', preload: ['/assets/framework.js', '/assets/router.js'], css: ['/assets/entry.css'] });
    expect(assetsOf('src/pages/Unknown.tsx')).toEqual(assetsOf());
  });

  it('adds the page chunk and its own imports, once each', () => {
    expect(assetsOf('src/pages/HomePage.tsx').preload).toEqual(['/assets/framework.js', '/assets/router.js', '/assets/HomePage.js', '/assets/card.js']);
    expect(assetsOf('src/pages/CartPage.tsx')).toEqual({
      script: '/assets/entry.js',
      preload: ['/assets/framework.js', '/assets/router.js', '/assets/CartPage.js'],
      css: ['/assets/entry.css', '/assets/cart.css'],
    });
  });

  it('refuses a build without the client entry', () => {
    expect(() => clientAssets({})).toThrow('src/entry-client.tsx is missing from the storefront build manifest');
  });
});
