import { describe, expect, it } from 'vitest';
import type { ProductV3, VariantV3 } from '../../lib/catalog';
import { boundProblem, draftOf, draftProblem, optionsUpdate, planVariants, plannedLabel, withChoice, withOption, type DraftOption, type OptionsPlan } from './options-plan';

type OptionV3 = ProductV3['options'][number];

const choice = (choiceId: string, name: string) => ({ choiceId, name, key: name.toLowerCase(), choiceType: 'CHOICE_TEXT' as const, inStock: true, visible: true });
const option = (id: string, name: string, choices: [string, string][]): OptionV3 => ({
  _id: id, name, key: name.toLowerCase(), optionRenderType: 'TEXT_CHOICES', choicesSettings: { choices: choices.map(([c, n]) => choice(c, n)) },
});
const SIZE = option('o-size', 'Size', [['c-s', 'S'], ['c-m', 'M']]);
const COLOR = option('o-color', 'Color', [['c-red', 'Red'], ['c-blue', 'Blue']]);

/** A stored variant with the given choices (option id, choice id, names) and price. */
function variant(id: string, price: string, picks: [OptionV3, string][], extra: Partial<VariantV3> = {}): VariantV3 {
  return {
    _id: id, visible: true, sku: null, barcode: null, inventoryStatus: { inStock: true, preorderEnabled: false },
    price: { actualPrice: { amount: price, formattedAmount: `€${price}` } },
    choices: picks.map(([o, c]) => ({
      optionChoiceIds: { optionId: o._id, choiceId: c },
      optionChoiceNames: { optionName: o.name, choiceName: o.choicesSettings.choices.find((x) => x.choiceId === c)!.name, renderType: 'TEXT_CHOICES' },
    })),
    ...extra,
  };
}

/** A product with one option (Size: S, M): S costs 10 with SKU and cost, M costs 12. */
const sized = {
  options: [SIZE],
  variantsInfo: { variants: [
    variant('v-s', '10', [[SIZE, 'c-s']], { sku: 'TEE-S', revenueDetails: { cost: { amount: '4', formattedAmount: '€4' }, profit: { amount: '6', formattedAmount: '€6' }, profitMargin: 0.6 } }),
    variant('v-m', '12', [[SIZE, 'c-m']]),
  ] },
};

/** A product with Size (S, M) x Color (Red, Blue), stored in that order. */
const grid = {
  options: [SIZE, COLOR],
  variantsInfo: { variants: [
    variant('v-s-red', '10', [[SIZE, 'c-s'], [COLOR, 'c-red']]),
    variant('v-s-blue', '11', [[SIZE, 'c-s'], [COLOR, 'c-blue']]),
    variant('v-m-red', '12', [[SIZE, 'c-m'], [COLOR, 'c-red']]),
    variant('v-m-blue', '13', [[SIZE, 'c-m'], [COLOR, 'c-blue']]),
  ] },
};

/** Each planned variant as "label <- stored id" (or "new"), plus the stored ids that go. */
const shape = (plan: OptionsPlan) => ({
  variants: plan.variants.map((p) => `${plannedLabel(p)} <- ${p.kept?._id ?? 'new'}`),
  dropped: plan.dropped.map((v) => v._id),
});

describe('V3 options plan', () => {
  it('keeps every variant as it is when nothing changes', () => {
    expect(shape(planVariants(grid.variantsInfo.variants, draftOf(grid.options)))).toEqual({
      variants: ['Size: S, Color: Red <- v-s-red', 'Size: S, Color: Blue <- v-s-blue', 'Size: M, Color: Red <- v-m-red', 'Size: M, Color: Blue <- v-m-blue'],
      dropped: [],
    });
  });

  it('adds an option: stored variants take its first choice, the other combinations are new at the first variant price', () => {
    const draft = withOption(sized.options, draftOf(sized.options), 'new-0', 'Color', ['Red', 'Blue']) as DraftOption[];
    const plan = planVariants(sized.variantsInfo.variants, draft);
    expect(shape(plan)).toEqual({
      variants: ['Size: S, Color: Red <- v-s', 'Size: S, Color: Blue <- new', 'Size: M, Color: Red <- v-m', 'Size: M, Color: Blue <- new'],
      dropped: [],
    });
    // The exact update: stored option and choices by id (their shape kept), new ones by name; stored variants whole, with their new choices.
    expect(optionsUpdate(sized, draft, plan)).toEqual({
      options: [
        { _id: 'o-size', name: 'Size', optionRenderType: 'TEXT_CHOICES', choicesSettings: { choices: [
          { choiceId: 'c-s', name: 'S', choiceType: 'CHOICE_TEXT', visible: true },
          { choiceId: 'c-m', name: 'M', choiceType: 'CHOICE_TEXT', visible: true },
        ] } },
        { name: 'Color', optionRenderType: 'TEXT_CHOICES', choicesSettings: { choices: [{ name: 'Red', choiceType: 'CHOICE_TEXT' }, { name: 'Blue', choiceType: 'CHOICE_TEXT' }] } },
      ],
      variantsInfo: { variants: [
        {
          _id: 'v-s', visible: true, sku: 'TEE-S', barcode: null, physicalProperties: null,
          choices: [{ optionChoiceIds: { optionId: 'o-size', choiceId: 'c-s' } }, { optionChoiceNames: { optionName: 'Color', choiceName: 'Red' } }],
          price: { actualPrice: { amount: '10' }, compareAtPrice: null }, revenueDetails: { cost: { amount: '4' } },
        },
        { visible: true, choices: [{ optionChoiceIds: { optionId: 'o-size', choiceId: 'c-s' } }, { optionChoiceNames: { optionName: 'Color', choiceName: 'Blue' } }], price: { actualPrice: { amount: '10' } } },
        {
          _id: 'v-m', visible: true, sku: null, barcode: null, physicalProperties: null,
          choices: [{ optionChoiceIds: { optionId: 'o-size', choiceId: 'c-m' } }, { optionChoiceNames: { optionName: 'Color', choiceName: 'Red' } }],
          price: { actualPrice: { amount: '12' }, compareAtPrice: null }, revenueDetails: null,
        },
        { visible: true, choices: [{ optionChoiceIds: { optionId: 'o-size', choiceId: 'c-m' } }, { optionChoiceNames: { optionName: 'Color', choiceName: 'Blue' } }], price: { actualPrice: { amount: '10' } } },
      ] },
    });
  });

  it('adds a choice: one new variant per new combination, referenced by names', () => {
    const draft = draftOf(grid.options);
    draft[0]!.choices.push({ name: 'L' });
    const plan = planVariants(grid.variantsInfo.variants, draft);
    expect(shape(plan)).toEqual({
      variants: [
        'Size: S, Color: Red <- v-s-red', 'Size: S, Color: Blue <- v-s-blue', 'Size: M, Color: Red <- v-m-red', 'Size: M, Color: Blue <- v-m-blue',
        'Size: L, Color: Red <- new', 'Size: L, Color: Blue <- new',
      ],
      dropped: [],
    });
    expect(optionsUpdate(grid, draft, plan).variantsInfo.variants.slice(4)).toEqual([
      { visible: true, choices: [{ optionChoiceNames: { optionName: 'Size', choiceName: 'L' } }, { optionChoiceIds: { optionId: 'o-color', choiceId: 'c-red' } }], price: { actualPrice: { amount: '10' } } },
      { visible: true, choices: [{ optionChoiceNames: { optionName: 'Size', choiceName: 'L' } }, { optionChoiceIds: { optionId: 'o-color', choiceId: 'c-blue' } }], price: { actualPrice: { amount: '10' } } },
    ]);
  });

  it('removes a choice: the variants that used it go', () => {
    const draft = draftOf(grid.options);
    draft[1]!.choices = draft[1]!.choices.filter((c) => c.name !== 'Red');
    expect(shape(planVariants(grid.variantsInfo.variants, draft))).toEqual({
      variants: ['Size: S, Color: Blue <- v-s-blue', 'Size: M, Color: Blue <- v-m-blue'],
      dropped: ['v-s-red', 'v-m-red'],
    });
  });

  it('removes an option: variants that differed only by it collapse into the first', () => {
    const noSize = draftOf(grid.options).filter((o) => o.name !== 'Size');
    const plan = planVariants(grid.variantsInfo.variants, noSize);
    expect(shape(plan)).toEqual({ variants: ['Color: Red <- v-s-red', 'Color: Blue <- v-s-blue'], dropped: ['v-m-red', 'v-m-blue'] });
    expect(optionsUpdate(grid, noSize, plan).variantsInfo.variants.map((v) => [v._id, v.price.actualPrice.amount, v.choices])).toEqual([
      ['v-s-red', '10', [{ optionChoiceIds: { optionId: 'o-color', choiceId: 'c-red' } }]],
      ['v-s-blue', '11', [{ optionChoiceIds: { optionId: 'o-color', choiceId: 'c-blue' } }]],
    ]);
    // Without any option the product is one variant: the first stored one.
    expect(shape(planVariants(grid.variantsInfo.variants, []))).toEqual({ variants: ['Product <- v-s-red'], dropped: ['v-s-blue', 'v-m-red', 'v-m-blue'] });
  });

  it('renames an option: every variant stays, its choices still named by ids', () => {
    const draft = draftOf(sized.options);
    draft[0]!.name = ' Fit ';
    const plan = planVariants(sized.variantsInfo.variants, draft);
    expect(shape(plan)).toEqual({ variants: ['Fit: S <- v-s', 'Fit: M <- v-m'], dropped: [] });
    const update = optionsUpdate(sized, draft, plan);
    expect(update.options?.map((o) => [o._id, o.name])).toEqual([['o-size', 'Fit']]);
    expect(update.variantsInfo.variants.map((v) => [v._id, v.choices])).toEqual([
      ['v-s', [{ optionChoiceIds: { optionId: 'o-size', choiceId: 'c-s' } }]],
      ['v-m', [{ optionChoiceIds: { optionId: 'o-size', choiceId: 'c-m' } }]],
    ]);
  });

  it('removes a choice and adds another in one edit: the removed one goes, the new one is new', () => {
    const draft = draftOf(sized.options);
    draft[0]!.choices = [draft[0]!.choices[1]!, { name: 'XL' }];
    expect(shape(planVariants(sized.variantsInfo.variants, draft))).toEqual({ variants: ['Size: M <- v-m', 'Size: XL <- new'], dropped: ['v-s'] });
  });

  it('gives a choice or an option removed and added again its stored ids back, as the server will', () => {
    const noM = draftOf(sized.options);
    noM[0]!.choices = noM[0]!.choices.filter((c) => c.name !== 'M');
    const mAgain = withChoice(sized.options, noM, 'o-size', 'M');
    expect(mAgain[0]!.choices).toEqual([{ choiceId: 'c-s', name: 'S' }, { choiceId: 'c-m', name: 'M' }]);
    expect(shape(planVariants(sized.variantsInfo.variants, mAgain))).toEqual({ variants: ['Size: S <- v-s', 'Size: M <- v-m'], dropped: [] });
    expect(withChoice(sized.options, noM, 'o-size', 'XL')[0]!.choices[1]).toEqual({ name: 'XL' });

    // Color removed and added again with its choices the other way round: each stored variant keeps its own combination.
    const colorAgain = withOption(grid.options, draftOf(grid.options).filter((o) => o.name !== 'Color'), 'new-0', 'Color', ['Blue', 'Red', 'Green']);
    expect(colorAgain).not.toBeTypeOf('string');
    const plan = planVariants(grid.variantsInfo.variants, colorAgain as DraftOption[]);
    expect(shape(plan)).toEqual({
      variants: [
        'Size: S, Color: Blue <- v-s-blue', 'Size: S, Color: Red <- v-s-red', 'Size: S, Color: Green <- new',
        'Size: M, Color: Blue <- v-m-blue', 'Size: M, Color: Red <- v-m-red', 'Size: M, Color: Green <- new',
      ],
      dropped: [],
    });
    expect(optionsUpdate(grid, colorAgain as DraftOption[], plan).options?.[1]).toEqual({ _id: 'o-color', name: 'Color', optionRenderType: 'TEXT_CHOICES', choicesSettings: { choices: [
      { choiceId: 'c-blue', name: 'Blue', choiceType: 'CHOICE_TEXT', visible: true }, { choiceId: 'c-red', name: 'Red', choiceType: 'CHOICE_TEXT', visible: true }, { name: 'Green', choiceType: 'CHOICE_TEXT' },
    ] } });
    // A new option under the saved name of an option renamed in the same edit is a new option.
    const renamed = draftOf(grid.options);
    renamed[1]!.name = 'Colour';
    expect(withOption(grid.options, renamed, 'new-0', 'Color', ['Red'])).toEqual([...renamed, { key: 'new-0', name: 'Color', choices: [{ name: 'Red' }] }]);
    expect(withOption(grid.options, renamed, 'new-0', 'Fit', ['Slim'])).toEqual([...renamed, { key: 'new-0', name: 'Fit', choices: [{ name: 'Slim' }] }]);
  });

  it('keeps the colours, image and visibility of a stored swatch choice', () => {
    const swatch: OptionV3 = {
      _id: 'o-col', name: 'Colour', key: 'colour', optionRenderType: 'SWATCH_CHOICES',
      choicesSettings: { choices: [{ ...choice('c-teal', 'Teal'), choiceType: 'ONE_COLOR', colorCode: '#2a9d8f', visible: false }] },
    };
    const product = { options: [swatch], variantsInfo: { variants: [variant('v-teal', '5', [[swatch, 'c-teal']])] } };
    const draft = draftOf(product.options);
    expect(optionsUpdate(product, draft, planVariants(product.variantsInfo.variants, draft)).options).toEqual([
      { _id: 'o-col', name: 'Colour', optionRenderType: 'SWATCH_CHOICES', choicesSettings: { choices: [{ choiceId: 'c-teal', name: 'Teal', choiceType: 'ONE_COLOR', colorCode: '#2a9d8f', visible: false }] } },
    ]);
  });

  it('checks the server bounds and names before anything is sent', () => {
    const named = (name: string, count: number): DraftOption => ({ key: name, name, choices: Array.from({ length: count }, (_, i) => ({ name: `${name}${i}` })) });
    expect(draftProblem(draftOf(grid.options))).toBeUndefined();
    expect(boundProblem(['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((n) => named(n, 1)))).toBe('A product has at most 6 options.');
    expect(boundProblem([named('Size', 101)])).toBe('Size has 101 choices; an option has at most 100.');
    expect(boundProblem([named('Size', 0)])).toBe('Size needs at least one choice.');
    expect(boundProblem([named('A', 10), named('B', 10), named('C', 10)])).toBeUndefined();
    expect(boundProblem([named('A', 10), named('B', 10), named('C', 11)])).toBe('These options make 1100 variants; a product has at most 1000.');
    // Six options of a hundred choices are counted, never listed.
    expect(boundProblem(['a', 'b', 'c', 'd', 'e', 'f'].map((n) => named(n, 100)))).toBe('These options make 1000000000000 variants; a product has at most 1000.');
    expect(draftProblem([named(' ', 1)])).toBe('Every option needs a name.');
    expect(draftProblem([named('Size', 1), { ...named('size ', 1), key: 'other' }])).toBe('Two options are named “size”.');
    expect(draftProblem([{ key: 'k', name: 'Size', choices: [{ name: 'M' }, { name: ' m' }] }])).toBe('Size has the choice “m” twice.');
    expect(draftProblem([{ key: 'k', name: 'Size', choices: [{ name: '' }] }])).toBe('Every choice of Size needs a name.');
    expect(draftProblem([named('x'.repeat(51), 1)])).toBe('Names are at most 50 characters.');
  });
});
