/**
 * What saving a V3 product's edited options does to its variants, worked out in the browser so the
 * owner sees it (and confirms what goes) before one update call sends options and variants together.
 *
 * - Every combination of the edited choices is one variant, in the options' order (first option
 *   varying slowest), as a new product's variants are made.
 * - A stored variant carries on (same id, so stock, SKU, prices and cost stay) as the combination of
 *   its choices that are still there; under a new option it takes that option's first choice.
 * - A stored variant whose choice was removed goes; when an option is removed, variants that differed
 *   only by it fall on the same combination and the first of them (in the product's order) stays.
 * - A combination no stored variant covers is a new variant at the price of the product's first variant.
 */
import {
  combinations, V3_CHOICES_MAX, V3_OPTION_NAME_MAX, V3_OPTIONS_MAX, V3_VARIANTS_MAX,
  type ProductV3, type ProductV3Input, type VariantV3,
} from '../../lib/catalog';
import { variantV3Input, type VariantV3Input } from './variant-input';

type OptionV3 = ProductV3['options'][number];
type OptionV3Input = NonNullable<ProductV3Input['options']>[number];

/** A choice being edited: `choiceId` once the product has it. */
export interface DraftChoice { choiceId?: string; name: string }
/** An option being edited: `optionId` once the product has it; `key` identifies it in the editor's list. */
export interface DraftOption { key: string; optionId?: string; name: string; choices: DraftChoice[] }

/** The product's options as the editor starts from. */
export function draftOf(options: readonly OptionV3[]): DraftOption[] {
  return options.map((o) => ({ key: o._id, optionId: o._id, name: o.name, choices: o.choicesSettings.choices.map((c) => ({ choiceId: c.choiceId, name: c.name })) }));
}

/**
 * The draft with a choice added to an option. The server gives a stored option's choice its id back
 * when a choice of the same name is sent without one, so the draft does the same: the variants of a
 * choice removed and added again stay, as they will on the server.
 */
export function withChoice(stored: readonly OptionV3[], draft: readonly DraftOption[], key: string, name: string): DraftOption[] {
  return draft.map((o) => {
    if (o.key !== key) return o;
    const again = stored.find((s) => s._id === o.optionId)?.choicesSettings.choices.find((c) => c.name === name);
    return { ...o, choices: [...o.choices, again ? { choiceId: again.choiceId, name } : { name }] };
  });
}

/**
 * The draft with a new option. The server matches an option sent without id to a stored one of the
 * same name (and its choices by name) unless another option of the update gives that stored id: a
 * stored option removed here comes back with its ids, as on the server; a name freed by renaming a
 * stored option here makes a new option.
 */
export function withOption(stored: readonly OptionV3[], draft: readonly DraftOption[], key: string, name: string, choices: readonly string[]): DraftOption[] {
  const same = stored.find((s) => s.name === name);
  if (!same || draft.some((o) => o.optionId === same._id)) return [...draft, { key, name, choices: choices.map((c) => ({ name: c })) }];
  return [...draft, {
    key: same._id, optionId: same._id, name,
    choices: choices.map((c) => {
      const again = same.choicesSettings.choices.find((x) => x.name === c);
      return again ? { choiceId: again.choiceId, name: c } : { name: c };
    }),
  }];
}

/** How many variants the options make (computed without listing them: 100^6 combinations must not be built). */
export function variantCount(draft: readonly DraftOption[]): number {
  return draft.reduce((n, o) => n * o.choices.length, 1);
}

/** The first count the server would refuse, in the owner's words; undefined when every count fits. */
export function boundProblem(draft: readonly DraftOption[]): string | undefined {
  if (draft.length > V3_OPTIONS_MAX) return `A product has at most ${V3_OPTIONS_MAX} options.`;
  for (const o of draft) {
    if (o.choices.length === 0) return `${o.name.trim() || 'An option'} needs at least one choice.`;
    if (o.choices.length > V3_CHOICES_MAX) return `${o.name.trim() || 'An option'} has ${o.choices.length} choices; an option has at most ${V3_CHOICES_MAX}.`;
  }
  const count = variantCount(draft);
  if (count > V3_VARIANTS_MAX) return `These options make ${count} variants; a product has at most ${V3_VARIANTS_MAX}.`;
  return undefined;
}

/** A missing, too long or repeated name (the server compares names without case). */
function nameProblem(draft: readonly DraftOption[]): string | undefined {
  const repeated = (names: readonly string[]) => names.find((n, i) => names.findIndex((m) => m.toLowerCase() === n.toLowerCase()) !== i);
  const optionNames = draft.map((o) => o.name.trim());
  if (optionNames.some((n) => !n)) return 'Every option needs a name.';
  const twice = repeated(optionNames);
  if (twice) return `Two options are named “${twice}”.`;
  for (const o of draft) {
    const names = o.choices.map((c) => c.name.trim());
    if (names.some((n) => !n)) return `Every choice of ${o.name.trim()} needs a name.`;
    const again = repeated(names);
    if (again) return `${o.name.trim()} has the choice “${again}” twice.`;
  }
  if ([...optionNames, ...draft.flatMap((o) => o.choices.map((c) => c.name.trim()))].some((n) => n.length > V3_OPTION_NAME_MAX)) return `Names are at most ${V3_OPTION_NAME_MAX} characters.`;
  return undefined;
}

/** Why the server would refuse these options, checked before sending; undefined when they can be saved. */
export function draftProblem(draft: readonly DraftOption[]): string | undefined {
  return boundProblem(draft) ?? nameProblem(draft);
}

export interface PlannedVariant {
  /** The stored variant this one carries on; absent for a new combination. */
  kept?: VariantV3;
  /** One choice of each option, in the options' order. */
  picks: { option: DraftOption; choice: DraftChoice }[];
}
export interface OptionsPlan {
  variants: PlannedVariant[];
  /** Stored variants the save removes (their choice is gone, or another variant took their combination). */
  dropped: VariantV3[];
}

/** Where a stored variant lands: the index of its choice in each edited option; undefined when one is gone. */
function placeOf(v: VariantV3, draft: readonly DraftOption[]): number[] | undefined {
  const place: number[] = [];
  for (const o of draft) {
    if (o.optionId === undefined) { place.push(0); continue; }
    const picked = v.choices.find((c) => c.optionChoiceIds.optionId === o.optionId)?.optionChoiceIds.choiceId;
    const at = o.choices.findIndex((c) => c.choiceId !== undefined && c.choiceId === picked);
    if (at < 0) return undefined;
    place.push(at);
  }
  return place;
}

/** The variant list after the edit (see the module comment); call it only when `boundProblem` finds nothing. */
export function planVariants(variants: readonly VariantV3[], draft: readonly DraftOption[]): OptionsPlan {
  const byPlace = new Map<string, VariantV3>();
  for (const v of variants) {
    const place = placeOf(v, draft)?.join('|');
    if (place !== undefined && !byPlace.has(place)) byPlace.set(place, v);
  }
  const planned = combinations(draft.map((option) => option.choices.map((choice, at) => ({ option, choice, at })))).map((combo): PlannedVariant => {
    const kept = byPlace.get(combo.map((c) => c.at).join('|'));
    return { ...(kept ? { kept } : {}), picks: combo.map(({ option, choice }) => ({ option, choice })) };
  });
  const stays = new Set(planned.flatMap((p) => (p.kept ? [p.kept._id] : [])));
  return { variants: planned, dropped: variants.filter((v) => !stays.has(v._id)) };
}

/** "Size: M, Color: Red", as the Variants card labels a stored variant. */
export function plannedLabel(p: PlannedVariant): string {
  return p.picks.map(({ option, choice }) => `${option.name.trim()}: ${choice.name.trim()}`).join(', ') || 'Product';
}

/** The options as the update call takes them; a stored choice keeps its id, type, colours, image and visibility. */
function optionsInput(stored: readonly OptionV3[], draft: readonly DraftOption[]): OptionV3Input[] {
  return draft.map((o) => {
    const source = stored.find((s) => s._id === o.optionId);
    return {
      ...(source ? { _id: source._id } : {}),
      name: o.name.trim(),
      optionRenderType: source?.optionRenderType ?? 'TEXT_CHOICES',
      choicesSettings: { choices: o.choices.map((c) => {
        const was = source?.choicesSettings.choices.find((s) => s.choiceId === c.choiceId);
        if (!was) return { name: c.name.trim(), choiceType: 'CHOICE_TEXT' as const };
        return {
          choiceId: was.choiceId, name: c.name.trim(), choiceType: was.choiceType, visible: was.visible,
          ...(was.colorCode ? { colorCode: was.colorCode } : {}), ...(was.multipleColors ? { multipleColors: was.multipleColors } : {}), ...(was.image ? { image: was.image } : {}),
        };
      }) },
    };
  });
}

/** One variant's choices: by ids when option and choice are stored, otherwise by (final) names, which the server resolves after saving the options. */
function choicesInput(p: PlannedVariant): NonNullable<VariantV3Input['choices']> {
  return p.picks.map(({ option, choice }) => (option.optionId !== undefined && choice.choiceId !== undefined
    ? { optionChoiceIds: { optionId: option.optionId, choiceId: choice.choiceId } }
    : { optionChoiceNames: { optionName: option.name.trim(), choiceName: choice.name.trim() } }));
}

/** Options and variants of the one update call that saves the edit. */
export function optionsUpdate(product: Pick<ProductV3, 'options' | 'variantsInfo'>, draft: readonly DraftOption[], plan: OptionsPlan): Pick<ProductV3Input, 'options' | 'variantsInfo'> {
  const basePrice = product.variantsInfo.variants[0]?.price.actualPrice.amount ?? '0';
  return {
    options: optionsInput(product.options, draft),
    variantsInfo: { variants: plan.variants.map((p): VariantV3Input => (p.kept
      ? { ...variantV3Input(p.kept), choices: choicesInput(p) }
      : { visible: true, choices: choicesInput(p), price: { actualPrice: { amount: basePrice } } })) },
  };
}
