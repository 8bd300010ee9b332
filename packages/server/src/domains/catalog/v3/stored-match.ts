import { ValidationError } from '../../../http/errors.js';

/**
 * How an update's options, choices, modifiers and variants continue the stored ones: an entry that
 * gives its id is that stored entry; one without an id continues the stored entry it matches (same
 * name, or same combination of choices), and so keeps that entry's id, stock and files.
 */

/** The ids the incoming entries give; one id given twice is refused at its second use. */
export function givenIds(ids: readonly (string | null | undefined)[], field: (i: number) => string): Set<string> {
  const first = new Map<string, number>();
  ids.forEach((id, i) => {
    if (id == null) return;
    const earlier = first.get(id);
    if (earlier !== undefined) throw new ValidationError([{ field: field(i), description: `is also the id of ${field(earlier)}`, violatedRule: 'FORMAT', data: {} }]);
    first.set(id, i);
  });
  return new Set(first.keys());
}

/**
 * The stored entry an incoming one continues: the one with its id when it gives one; otherwise the
 * first that `matches` it and whose id no incoming entry gives (a rename plus a new entry under the
 * old name, in one update, would otherwise make two entries with one id).
 */
export function storedMatch<S>(stored: readonly S[] | undefined, idOf: (s: S) => string, given: ReadonlySet<string>, id: string | null | undefined, matches: (s: S) => boolean): S | undefined {
  if (!stored) return undefined;
  if (id != null) return stored.find((s) => idOf(s) === id);
  return stored.find((s) => !given.has(idOf(s)) && matches(s));
}
