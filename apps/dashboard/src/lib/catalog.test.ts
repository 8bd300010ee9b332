import { describe, expect, it } from 'vitest';
import { firstDifference } from '@vitrine/react';
import { amountText, choiceCombinations, choiceList, moveItem, optionInputs, seoFields, seoTags, variantV3Label } from './catalog';
import { inputText, referenceText, referencedCollection } from './data';

/** Pure helpers of the product editors and the data grid (the pages are proven in e2e/). */
describe('product editor helpers', () => {
  it('reads and writes the SEO title and description, keeping other tags', () => {
    const other = { type: 'meta', props: { property: 'og:image', content: 'x' } };
    const tags = seoTags([{ type: 'title', children: 'Old' }, other], { title: ' New title ', description: 'About it' });
    expect(tags).toEqual([{ type: 'title', children: 'New title' }, { type: 'meta', props: { name: 'description', content: 'About it' } }, other]);
    expect(seoFields({ seoData: { tags } })).toEqual({ title: 'New title', description: 'About it' });
    expect(seoTags(tags, { title: '', description: '' })).toEqual([other]);
    expect(seoFields({})).toEqual({ title: '', description: '' });
  });

  it('moves an item and finds where two orders part', () => {
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, 3)).toEqual(['a', 'b', 'c']);
    expect(firstDifference(['a', 'b', 'c'], ['a', 'c', 'b'])).toBe(1);
    expect(firstDifference(['a', 'b'], ['a', 'b'])).toBe(2);
  });

  it('turns typed options into inputs and every combination of choices', () => {
    expect(choiceList(' S, M,,S , L ')).toEqual(['S', 'M', 'L']);
    expect(optionInputs([{ name: ' Size ', choices: 'S, M' }, { name: '', choices: 'x' }, { name: 'Empty', choices: ' , ' }]))
      .toEqual([{ name: 'Size', choices: [{ value: 'S', description: 'S' }, { value: 'M', description: 'M' }] }]);
    expect(choiceCombinations([{ name: 'Size', choices: ['S', 'M'] }, { name: 'Color', choices: ['Red', 'Blue'] }]).map((c) => c.map((x) => x.choiceName).join('/')))
      .toEqual(['S/Red', 'S/Blue', 'M/Red', 'M/Blue']);
    expect(choiceCombinations([])).toEqual([[]]);
  });

  it('writes amounts as the V3 decimal text and refuses what is not one', () => {
    expect(amountText('12')).toBe('12.00');
    expect(amountText(' 9.5 ')).toBe('9.50');
    expect(amountText('24.999')).toBeUndefined();
    expect(amountText('-1')).toBeUndefined();
    expect(amountText('')).toBeUndefined();
  });

  it('labels a V3 variant by its choices', () => {
    const choice = (optionName: string, choiceName: string) => ({ optionChoiceIds: { optionId: 'o', choiceId: 'c' }, optionChoiceNames: { optionName, choiceName, renderType: 'TEXT_CHOICES' as const } });
    expect(variantV3Label({ choices: [choice('Size', 'M'), choice('Color', 'Black')] })).toBe('Size: M, Color: Black');
    expect(variantV3Label({ choices: [] })).toBe('Product');
  });
});

describe('data grid helpers', () => {
  const reference = { key: 'recipe', type: 'REFERENCE', typeMetadata: { reference: { referencedCollectionId: 'recipes' } } };
  it('finds a reference target and shows a referenced item by its title', () => {
    expect(referencedCollection(reference)).toBe('recipes');
    expect(referencedCollection({ type: 'NUMBER' })).toBeUndefined();
    expect(referenceText({ _id: 'r1', title: 'Soup' })).toBe('Soup');
    expect(referenceText({ _id: 'r1' })).toBe('r1');
    expect(referenceText('r2')).toBe('r2');
  });

  it('gives an edit input the stored value as text', () => {
    expect(inputText(reference, { _id: 'r1', title: 'Soup' })).toBe('r1');
    expect(inputText({ type: 'BOOLEAN' }, true)).toBe(true);
    expect(inputText({ type: 'NUMBER' }, 7.5)).toBe('7.5');
    expect(inputText({ type: 'ARRAY_STRING' }, ['a'])).toBe('["a"]');
    expect(inputText({ type: 'TEXT' }, undefined)).toBe('');
    const when = new Date(2026, 10, 23, 9, 5);
    expect(inputText({ type: 'DATETIME' }, when)).toBe('2026-11-23T09:05');
  });
});
