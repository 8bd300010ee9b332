import { useMemo, useState, type KeyboardEvent } from 'react';
import { useUpdateProductV3 } from '@vitrine/react';
import { V3_OPTION_NAME_MAX, choiceList, variantV3Label, type ProductV3 } from '../../lib/catalog';
import { ConfirmDialog } from '../../components/ConfirmButton';
import { TextField, secondaryButton } from '../../components/Form';
import { EditorForm, EditorSection } from '../Section';
import { boundProblem, draftOf, draftProblem, optionsUpdate, planVariants, plannedLabel, withChoice, withOption, type DraftOption } from './options-plan';

/** A removal that drops stored variants, waiting for the owner's confirmation. */
interface PendingRemoval { kind: 'choice' | 'option'; what: string; goes: string[]; next: DraftOption[] }

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
/** Enter in an "add" field adds instead of submitting the whole card. */
const onEnter = (act: () => void) => (e: KeyboardEvent) => { if (e.key === 'Enter') { e.preventDefault(); act(); } };

/**
 * The options of a stored V3 product: rename an option, add or remove choices and options. The card
 * shows the variant list the save will leave (options-plan.ts), asks before a removal drops stored
 * variants, and saves options and variants in one update with the revision last read.
 */
export function OptionsV3({ product }: { product: ProductV3 }) {
  const variants = product.variantsInfo.variants;
  const [draft, setDraft] = useState(() => draftOf(product.options));
  const [newChoices, setNewChoices] = useState<Record<string, string>>({});
  const [newOption, setNewOption] = useState({ name: '', choices: '' });
  const [added, setAdded] = useState(0);
  const [problem, setProblem] = useState<string>();
  const [pending, setPending] = useState<PendingRemoval>();
  const save = useUpdateProductV3();
  // The draft never passes the bounds (every change is checked first), so the plan stays small.
  const plan = useMemo(() => planVariants(variants, draft), [variants, draft]);
  const edited = JSON.stringify(draft) !== JSON.stringify(draftOf(product.options));

  /** Takes the change unless the server would refuse its counts (or `refusal` says why not); shows the reason. */
  const change = (next: DraftOption[], refusal?: string): boolean => {
    const why = refusal ?? boundProblem(next);
    save.reset();
    setProblem(why);
    if (!why) setDraft(next);
    return !why;
  };
  const remove = (next: DraftOption[], kind: PendingRemoval['kind'], what: string) => {
    if (boundProblem(next)) { change(next); return; }
    const droppedBefore = new Set(plan.dropped.map((v) => v._id));
    const goes = planVariants(variants, next).dropped.filter((v) => !droppedBefore.has(v._id)).map(variantV3Label);
    if (goes.length === 0) change(next); else setPending({ kind, what, goes, next });
  };
  const nameOf = (o: DraftOption, i: number) => o.name.trim() || `option ${i + 1}`;

  const addChoice = (o: DraftOption, i: number) => {
    const name = (newChoices[o.key] ?? '').trim();
    if (!name) return;
    const taken = o.choices.some((c) => sameName(c.name, name));
    const next = withChoice(product.options, draft, o.key, name);
    if (change(next, taken ? `${nameOf(o, i)} already has the choice “${name}”.` : undefined)) setNewChoices((m) => ({ ...m, [o.key]: '' }));
  };
  const addOption = () => {
    const name = newOption.name.trim();
    const choices = choiceList(newOption.choices);
    const next = withOption(product.options, draft, `new-${added}`, name, choices);
    const why = !name || choices.length === 0 ? 'A new option needs a name and at least one choice (choices separated by commas).'
      : draft.some((o) => sameName(o.name, name)) ? `There is already an option named “${name}”.` : undefined;
    if (change(next, why)) { setAdded((n) => n + 1); setNewOption({ name: '', choices: '' }); }
  };
  const submit = () => {
    const why = draftProblem(draft);
    setProblem(why);
    if (why) return;
    save.mutate({ _id: product._id, product: { revision: product.revision, ...optionsUpdate(product, draft, plan) } }, {
      onSuccess: (saved) => { setDraft(draftOf(saved.options)); setNewChoices({}); },
    });
  };

  const swatch = (o: DraftOption) => product.options.find((s) => s._id === o.optionId)?.optionRenderType === 'SWATCH_CHOICES';
  const newCount = plan.variants.filter((v) => !v.kept).length;
  return (
    <EditorSection id="options-heading" title="Options">
      <EditorForm label="Options" onSubmit={submit} state={{ ...save, error: problem ? new Error(problem) : save.error }} saveLabel="Save options" saved="Options saved.">
        {draft.length === 0 && <p className="text-sm text-slate-600">No options: the product is sold as one variant.</p>}
        {draft.map((o, i) => (
          <div key={o.key} role="group" aria-label={`Option ${nameOf(o, i)}`} data-testid="option-v3" className="space-y-2 rounded border border-slate-200 p-3">
            <div className="flex flex-wrap items-end gap-3">
              <TextField label={`Option ${i + 1} name`} maxLength={V3_OPTION_NAME_MAX} value={o.name} onChange={(e) => change(draft.map((x) => (x.key === o.key ? { ...x, name: e.target.value } : x)))} />
              <button type="button" className={secondaryButton} aria-label={`Remove option ${nameOf(o, i)}`} onClick={() => remove(draft.filter((x) => x.key !== o.key), 'option', nameOf(o, i))}>Remove option</button>
            </div>
            <ul className="flex flex-wrap gap-2 text-sm" aria-label={`Choices of ${nameOf(o, i)}`}>
              {o.choices.map((c) => (
                <li key={c.choiceId ?? `new:${c.name}`} data-testid="option-v3-choice" className="flex items-center gap-1 rounded bg-slate-100 px-2 py-0.5">
                  {c.name}{c.choiceId ? '' : ' (new)'}
                  <button type="button" className="px-1 text-slate-600 hover:text-rose-700" aria-label={`Remove choice ${c.name} of ${nameOf(o, i)}`}
                    onClick={() => remove(draft.map((x) => (x.key === o.key ? { ...x, choices: x.choices.filter((y) => y !== c) } : x)), 'choice', `${c.name} of ${nameOf(o, i)}`)}>×</button>
                </li>
              ))}
            </ul>
            {swatch(o)
              ? <p className="text-xs text-slate-600">Colour swatches: new choices need a colour, set through the API.</p>
              : (
                <div className="flex flex-wrap items-end gap-2">
                  <TextField label={`New choice of ${nameOf(o, i)}`} maxLength={V3_OPTION_NAME_MAX} value={newChoices[o.key] ?? ''}
                    onChange={(e) => setNewChoices((m) => ({ ...m, [o.key]: e.target.value }))} onKeyDown={onEnter(() => addChoice(o, i))} />
                  <button type="button" className={secondaryButton} aria-label={`Add choice to ${nameOf(o, i)}`} onClick={() => addChoice(o, i)}>Add choice</button>
                </div>
              )}
          </div>
        ))}
        <div role="group" aria-label="New option" className="flex flex-wrap items-end gap-2">
          <TextField label="New option name" maxLength={V3_OPTION_NAME_MAX} placeholder="Material" value={newOption.name} onChange={(e) => setNewOption((n) => ({ ...n, name: e.target.value }))} onKeyDown={onEnter(addOption)} />
          <TextField label="New option choices" placeholder="Cotton, Linen" value={newOption.choices} onChange={(e) => setNewOption((n) => ({ ...n, choices: e.target.value }))} onKeyDown={onEnter(addOption)} className="min-w-64 flex-1" />
          <button type="button" className={secondaryButton} onClick={addOption}>Add option</button>
        </div>
        {edited && (
          <div className="text-sm">
            <p data-testid="options-plan-summary">After saving: {plan.variants.length} variants ({newCount} new, {plan.dropped.length} removed).</p>
            <ul className="mt-1 list-disc pl-5" aria-label="Variants after saving">
              {plan.variants.map((v, i) => <li key={i} data-testid="planned-variant">{plannedLabel(v)}{v.kept ? '' : ' (new)'}</li>)}
            </ul>
          </div>
        )}
      </EditorForm>
      {pending && (
        <ConfirmDialog title={`Remove ${pending.kind}`} confirmLabel={`Remove ${pending.kind}`} onClose={() => setPending(undefined)} onConfirm={() => { change(pending.next); }}
          message={(
            <>
              <p>
                {pending.kind === 'option' ? `Removing option ${pending.what} merges the variants that differ only by it (the first of each stays). ` : `Removing choice ${pending.what}: `}
                {pending.goes.length === 1 ? '1 variant goes when you save, with its stock, SKU and price:' : `${pending.goes.length} variants go when you save, with their stock, SKUs and prices:`}
              </p>
              <ul className="mt-2 list-disc pl-5" data-testid="variants-going">{pending.goes.map((g) => <li key={g}>{g}</li>)}</ul>
            </>
          )} />
      )}
    </EditorSection>
  );
}
