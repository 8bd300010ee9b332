import { useState, type FormEvent } from 'react';
import { useUpdateDiscountRule } from '@vitrine/react';
import type { discountRules } from '@vitrine/sdk/ecom';
import { ErrorAlert } from '../components/Alert';
import { TextField, primaryButton, secondaryButton } from '../components/Form';
import { Modal } from '../components/Modal';
import { ruleTerms, type RuleFields } from './rule-fields';
import { RuleTermInputs } from './TermInputs';

type Rule = discountRules.DiscountRule;

/**
 * What the editor can change without losing anything: a rule of one percent or amount off the whole
 * cart or shipping, every cart or from a minimum subtotal (the shape Settings creates). Other rules
 * (item scopes, several values, other triggers) are changed through the API.
 */
export function editableRule(rule: Rule): RuleFields | undefined {
  const values = rule.discounts.values;
  const v = values[0];
  if (values.length !== 1 || !v || (v.targetType !== 'GLOBAL' && v.targetType !== 'SHIPPING')) return undefined;
  if (v.discountType !== 'PERCENTAGE' && v.discountType !== 'FIXED_AMOUNT') return undefined;
  const trigger = rule.trigger;
  if (trigger && !(trigger.triggerType === 'SUBTOTAL_RANGE' && trigger.subtotalRange?.from && !trigger.subtotalRange.to)) return undefined;
  return {
    kind: v.discountType,
    value: v.discountType === 'PERCENTAGE' ? String(v.percentage ?? '') : String(v.fixedAmount ?? ''),
    target: v.targetType,
    minimum: trigger?.subtotalRange?.from ?? '',
  };
}

/** "Edit" on a rule's row: name, kind, amount and minimum subtotal in a dialog, saved with the revision last read. */
export function EditRuleButton({ rule }: { rule: Rule }) {
  const [open, setOpen] = useState(false);
  const fields = editableRule(rule);
  if (!fields) return null;
  return (
    <>
      <button type="button" className={secondaryButton} aria-label={`Edit rule ${rule.name}`} onClick={() => setOpen(true)}>Edit</button>
      {open && (
        <Modal title="Edit discount rule" onClose={() => setOpen(false)}>
          <RuleForm rule={rule} initial={fields} onDone={() => setOpen(false)} />
        </Modal>
      )}
    </>
  );
}

function RuleForm({ rule, initial, onDone }: { rule: Rule; initial: RuleFields; onDone: () => void }) {
  const update = useUpdateDiscountRule();
  const [name, setName] = useState(rule.name);
  const [fields, setFields] = useState<RuleFields>(initial);
  const [localError, setLocalError] = useState<string>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setLocalError(undefined);
    const checked = ruleTerms(fields);
    if ('error' in checked) { setLocalError(checked.error); return; }
    // trigger null clears a minimum the rule had.
    update.mutate({ _id: rule._id, rule: { revision: rule.revision, name: name.trim(), ...checked.terms } }, { onSuccess: onDone });
  };
  return (
    <form onSubmit={submit} aria-label="Discount rule" className="space-y-3">
      <TextField label="Rule name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
      <RuleTermInputs fields={fields} onChange={setFields} layout="stacked" />
      {localError && <p role="alert" className="text-sm text-rose-700">{localError}</p>}
      <ErrorAlert error={update.error} />
      <div className="flex justify-end gap-2">
        <button type="button" onClick={onDone} className={secondaryButton}>Cancel</button>
        <button disabled={update.isPending} className={primaryButton}>{update.isPending ? 'Saving…' : 'Save rule'}</button>
      </div>
    </form>
  );
}
