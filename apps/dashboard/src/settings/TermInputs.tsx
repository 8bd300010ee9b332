import { SelectField, TextField } from '../components/Form';
import type { CouponFields, CouponKind } from './coupon-fields';
import type { RuleFields, RuleKind } from './rule-fields';

/**
 * The inputs of a coupon's or a rule's terms, shared by the new-item forms (one row, fixed widths)
 * and the edit dialogs (stacked, full width): one place for their labels and choices.
 */
type Layout = 'row' | 'stacked';
const width = (layout: Layout, row: string) => (layout === 'row' ? row : undefined);

export function CouponTermInputs({ fields, onChange, layout }: { fields: CouponFields; onChange: (next: CouponFields) => void; layout: Layout }) {
  const set = (patch: Partial<CouponFields>) => onChange({ ...fields, ...patch });
  return (
    <>
      <SelectField label="Coupon kind" value={fields.kind} onChange={(e) => set({ kind: couponKind(e.target.value) })}>
        <option value="percent">Percent off</option>
        <option value="amount">Amount off</option>
        <option value="shipping">Free shipping</option>
      </SelectField>
      {fields.kind !== 'shipping' && <TextField label="Coupon discount" required inputMode="decimal" value={fields.value} onChange={(e) => set({ value: e.target.value })} className={width(layout, 'w-28')} />}
      <TextField label="Coupon minimum subtotal" inputMode="decimal" value={fields.minimum} onChange={(e) => set({ minimum: e.target.value })} className={width(layout, 'w-44')} />
      <TextField label="Uses (optional)" inputMode="numeric" value={fields.limit} onChange={(e) => set({ limit: e.target.value })} className={width(layout, 'w-28')} />
      <TextField label="Last day (optional)" type="date" value={fields.expires} onChange={(e) => set({ expires: e.target.value })} />
    </>
  );
}

const couponKind = (v: string): CouponKind => (v === 'amount' ? 'amount' : v === 'shipping' ? 'shipping' : 'percent');

/** Kind, amount and minimum of a rule (where it applies is chosen once, when it is created). */
export function RuleTermInputs({ fields, onChange, layout }: { fields: RuleFields; onChange: (next: RuleFields) => void; layout: Layout }) {
  const set = (patch: Partial<RuleFields>) => onChange({ ...fields, ...patch });
  return (
    <>
      <SelectField label="Kind" value={fields.kind} onChange={(e) => set({ kind: ruleKind(e.target.value) })}>
        <option value="PERCENTAGE">Percent off</option>
        <option value="FIXED_AMOUNT">Amount off</option>
      </SelectField>
      <TextField label="Discount" required inputMode="decimal" value={fields.value} onChange={(e) => set({ value: e.target.value })} className={width(layout, 'w-28')} />
      <TextField label="Minimum subtotal (optional)" inputMode="decimal" value={fields.minimum} onChange={(e) => set({ minimum: e.target.value })} className={width(layout, 'w-48')} />
    </>
  );
}

const ruleKind = (v: string): RuleKind => (v === 'FIXED_AMOUNT' ? 'FIXED_AMOUNT' : 'PERCENTAGE');
