import { describe, expect, it } from 'vitest';
import { productHead } from './seo';

describe('product page head', () => {
  it("states the owner's SEO title as written and the meta description", () => {
    expect(productHead({ name: 'Summit Flask', description: 'Long text', seoData: { tags: [{ type: 'title', children: 'Summit Flask | Ridgeline' }, { type: 'meta', props: { name: 'description', content: 'For long days.' } }] } }))
      .toEqual({ title: 'Summit Flask | Ridgeline', exactTitle: true, description: 'For long days.' });
  });
  it('falls back to the name and description, skipping disabled and blank tags', () => {
    expect(productHead({ name: 'Mug', description: 'A mug.', seoData: { tags: [{ type: 'title', children: 'Old', disabled: true }, { type: 'meta', props: { name: 'description', content: '  ' } }] } }))
      .toEqual({ title: 'Mug', exactTitle: false, description: 'A mug.' });
    expect(productHead({ name: 'Mug', description: '' })).toEqual({ title: 'Mug', exactTitle: false, description: 'Mug at our store.' });
  });
});
