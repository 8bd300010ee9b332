import { useState, type FormEvent } from 'react';
import {
  useCoupons, useCreateCoupon, useCreateDiscountRule, useDeleteCoupon, useDeleteDiscountRule, useDiscountRules, useSetCouponActive, useSetDiscountRuleActive,
} from '@vitrine/react';
import type { coupons, discountRules } from '@vitrine/sdk/ecom';
import { ErrorAlert } from '../components/Alert';
import { ConfirmButton } from '../components/ConfirmButton';
import { DataTable, type Column } from '../components/DataTable';
import { SelectField, TextField, formatDate, primaryButton, secondaryButton } from '../components/Form';
import { StatusBadge } from '../components/StatusBadge';
import { ruleTerms, type RuleFields } from './rule-fields';
import { EditRuleButton } from './DiscountRuleEditor';
import { EditCouponButton } from './CouponEditor';
import { couponTerms, describeCouponViolation, type CouponFields } from './coupon-fields';
import { CouponTermInputs, RuleTermInputs } from './TermInputs';
import { useLocked } from '../components/useLocked';

type Rule = discountRules.DiscountRule;

const NEW_RULE: RuleFields = { target: 'GLOBAL', kind: 'PERCENTAGE', value: '', minimum: '' };
const NEW_COUPON: CouponFields = { kind: 'percent', value: '', minimum: '', limit: '', expires: '' };
type RuleValue = Rule['discounts']['values'][number];

/** Automatic discount rules and coupon codes: both change what a cart costs the moment they are saved. */
export function DiscountsSettings() {
  return (
    <div className="space-y-10">
      <DiscountRules />
      <Coupons />
    </div>
  );
}

function describeValue(v: RuleValue): string {
  const what = v.discountType === 'PERCENTAGE' ? `${v.percentage ?? 0}% off` : v.discountType === 'FIXED_AMOUNT' ? `${v.fixedAmount ?? ''} off` : `price ${v.fixedPrice ?? ''}`;
  const on = v.targetType === 'GLOBAL' ? 'the whole cart' : v.targetType === 'SHIPPING' ? 'shipping' : 'chosen items';
  return `${what} ${on}`;
}

function describeTrigger(rule: Rule): string {
  const from = rule.trigger?.triggerType === 'SUBTOTAL_RANGE' ? rule.trigger.subtotalRange?.from : undefined;
  if (from) return `subtotal ${from} or more`;
  return rule.trigger ? rule.trigger.triggerType.toLowerCase().replace(/_/g, ' ') : 'every cart';
}

function DiscountRules() {
  const rules = useDiscountRules();
  const create = useLocked(useCreateDiscountRule());
  const setActive = useSetDiscountRuleActive();
  const remove = useDeleteDiscountRule();
  const [name, setName] = useState('');
  const [fields, setFields] = useState<RuleFields>(NEW_RULE);
  const [localError, setLocalError] = useState<string>();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setLocalError(undefined);
    const checked = ruleTerms(fields);
    if ('error' in checked) { setLocalError(checked.error); return; }
    // A new rule for every cart names no trigger at all.
    const { trigger, discounts } = checked.terms;
    create.mutate({ name: name.trim(), active: true, ...(trigger ? { trigger } : {}), discounts },
      { onSuccess: () => { setName(''); setFields({ ...fields, value: '', minimum: '' }); } });
  };

  const columns: Column<Rule>[] = [
    { header: 'Name', cell: (r) => r.name },
    { header: 'Discount', cell: (r) => r.discounts.values.map(describeValue).join('; ') },
    { header: 'When', cell: (r) => describeTrigger(r) },
    { header: 'Status', cell: (r) => <StatusBadge value={r.status} /> },
    { header: 'Used', cell: (r) => r.usageCount, className: 'tabular-nums' },
    { header: 'Created', cell: (r) => formatDate(r._createdDate) },
    {
      header: 'Actions',
      cell: (r) => (
        <div className="flex gap-2">
          <EditRuleButton rule={r} />
          {r.active
            ? <ConfirmButton label="Turn off" ariaLabel={`Turn off rule ${r.name}`} title="Turn off discount rule" confirmLabel="Turn off"
                message={`Turn off "${r.name}"? Carts stop getting this discount at once.`} onConfirm={() => setActive.mutateAsync({ _id: r._id, revision: r.revision, active: false })} />
            : <button type="button" className={secondaryButton} aria-label={`Turn on rule ${r.name}`} disabled={setActive.isPending}
                onClick={() => setActive.mutate({ _id: r._id, revision: r.revision, active: true })}>Turn on</button>}
          <ConfirmButton label="Delete" ariaLabel={`Delete rule ${r.name}`} title="Delete discount rule" confirmLabel="Delete rule"
            message={`Delete the discount rule "${r.name}"? Carts stop getting it; placed orders keep theirs.`} onConfirm={() => remove.mutateAsync(r._id)} />
        </div>
      ),
    },
  ];
  return (
    <section aria-labelledby="discount-rules" className="space-y-4">
      <h2 id="discount-rules" className="text-lg font-semibold">Automatic discounts</h2>
      <ErrorAlert error={setActive.error} />
      <DataTable label="Discount rules" columns={columns} rows={rules.data} rowKey={(r) => r._id} rowTestId="discount-rule-row" isLoading={rules.isLoading} error={rules.error} empty="No automatic discounts." />
      <form onSubmit={submit} aria-label="New discount rule" className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4">
        <TextField label="Rule name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        <SelectField label="Applies to" value={fields.target} onChange={(e) => setFields({ ...fields, target: e.target.value === 'SHIPPING' ? 'SHIPPING' : 'GLOBAL' })}>
          <option value="GLOBAL">Whole cart</option>
          <option value="SHIPPING">Shipping</option>
        </SelectField>
        <RuleTermInputs fields={fields} onChange={setFields} layout="row" />
        <button disabled={create.isPending} className={primaryButton}>{create.isPending ? 'Saving…' : 'Add rule'}</button>
        <div className="basis-full">{localError && <p role="alert" className="text-sm text-rose-700">{localError}</p>}<ErrorAlert error={create.error} describe={describeCouponViolation} /></div>
      </form>
    </section>
  );
}

function Coupons() {
  const list = useCoupons();
  const create = useLocked(useCreateCoupon());
  const setActive = useSetCouponActive();
  const remove = useDeleteCoupon();
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const [fields, setFields] = useState<CouponFields>(NEW_COUPON);
  const [localError, setLocalError] = useState<string>();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setLocalError(undefined);
    const checked = couponTerms(fields);
    if ('error' in checked) { setLocalError(checked.error); return; }
    // A new coupon names only the terms it has (no nulls to clear).
    const terms = Object.fromEntries(Object.entries(checked.terms).filter(([, v]) => v !== null));
    create.mutate({ name: name.trim(), code: code.trim(), startTime: new Date().toISOString(), active: true, ...terms },
      { onSuccess: () => { setName(''); setCode(''); setFields(NEW_COUPON); } });
  };

  const columns: Column<coupons.Coupon>[] = [
    { header: 'Code', cell: (c) => <span className="font-mono">{c.specification.code}</span> },
    { header: 'Name', cell: (c) => c.specification.name },
    { header: 'Discount', cell: (c) => c.displayData.discountDescription },
    { header: 'Used', cell: (c) => `${c.numberOfUsages}${c.specification.usageLimit ? ` of ${c.specification.usageLimit}` : ''}`, className: 'tabular-nums' },
    { header: 'Expires', cell: (c) => formatDate(c.specification.expirationTime ? new Date(c.specification.expirationTime) : null) },
    { header: 'Status', cell: (c) => <StatusBadge value={c.expired ? 'EXPIRED' : c.specification.active === false ? 'OFF' : 'ACTIVE'} /> },
    {
      header: 'Actions',
      cell: (c) => (
        <div className="flex gap-2">
          <EditCouponButton coupon={c} />
          {c.specification.active === false
            ? <button type="button" className={secondaryButton} aria-label={`Turn on coupon ${c.specification.code}`} onClick={() => setActive.mutate({ _id: c._id, active: true })}>Turn on</button>
            : <ConfirmButton label="Turn off" ariaLabel={`Turn off coupon ${c.specification.code}`} title="Turn off coupon" confirmLabel="Turn off"
                message={`Turn off ${c.specification.code}? Buyers entering it are refused.`} onConfirm={() => setActive.mutateAsync({ _id: c._id, active: false })} />}
          <ConfirmButton label="Delete" ariaLabel={`Delete coupon ${c.specification.code}`} title="Delete coupon" confirmLabel="Delete coupon"
            message={`Delete the coupon ${c.specification.code}? Buyers can no longer use it.`} onConfirm={() => remove.mutateAsync(c._id)} />
        </div>
      ),
    },
  ];
  return (
    <section aria-labelledby="coupons" className="space-y-4">
      <h2 id="coupons" className="text-lg font-semibold">Coupons</h2>
      <ErrorAlert error={setActive.error} />
      <DataTable label="Coupons" columns={columns} rows={list.data} rowKey={(c) => c._id} rowTestId="coupon-row" isLoading={list.isLoading} error={list.error} empty="No coupons." />
      <form onSubmit={submit} aria-label="New coupon" className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4">
        <TextField label="Coupon name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        <TextField label="Code" required maxLength={20} pattern="[A-Za-z0-9_\-]+" title="Letters, digits, - and _" value={code} onChange={(e) => setCode(e.target.value)} className="w-32" />
        <CouponTermInputs fields={fields} onChange={setFields} layout="row" />
        <button disabled={create.isPending} className={primaryButton}>{create.isPending ? 'Saving…' : 'Add coupon'}</button>
        <div className="basis-full">{localError && <p role="alert" className="text-sm text-rose-700">{localError}</p>}<ErrorAlert error={create.error} /></div>
      </form>
    </section>
  );
}
