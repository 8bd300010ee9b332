import { useState, type FormEvent } from 'react';
import { useUpdateCoupon } from '@vitrine/react';
import type { coupons } from '@vitrine/sdk/ecom';
import { ErrorAlert } from '../components/Alert';
import { SelectField, TextField, primaryButton, secondaryButton } from '../components/Form';
import { Modal } from '../components/Modal';
import { couponFields, couponTerms, editableCoupon, type CouponKind } from './coupon-fields';

/**
 * "Edit" on a coupon's row: its name, discount, minimum subtotal, use limit and last day in a dialog.
 * The code stays (buyers may have it already). Coupons of a shape the dialog cannot show whole
 * (a fixed price, an item scope) have no Edit and are changed through the API.
 */
export function EditCouponButton({ coupon }: { coupon: coupons.Coupon }) {
  const [open, setOpen] = useState(false);
  if (!editableCoupon(coupon.specification)) return null;
  const code = coupon.specification.code;
  return (
    <>
      <button type="button" className={secondaryButton} aria-label={`Edit coupon ${code}`} onClick={() => setOpen(true)}>Edit</button>
      {open && (
        <Modal title={`Edit coupon ${code}`} onClose={() => setOpen(false)}>
          <CouponForm coupon={coupon} onDone={() => setOpen(false)} />
        </Modal>
      )}
    </>
  );
}

function CouponForm({ coupon, onDone }: { coupon: coupons.Coupon; onDone: () => void }) {
  const update = useUpdateCoupon();
  const initial = couponFields(coupon.specification);
  const [name, setName] = useState(coupon.specification.name);
  const [kind, setKind] = useState<CouponKind>(initial.kind);
  const [value, setValue] = useState(initial.value);
  const [minimum, setMinimum] = useState(initial.minimum);
  const [limit, setLimit] = useState(initial.limit);
  const [expires, setExpires] = useState(initial.expires);
  const [localError, setLocalError] = useState<string>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setLocalError(undefined);
    const checked = couponTerms({ kind, value, minimum, limit, expires });
    if ('error' in checked) { setLocalError(checked.error); return; }
    // Every term is sent: a cleared one as null, so the coupon loses it.
    update.mutate({ _id: coupon._id, specification: { name: name.trim(), ...checked.terms } }, { onSuccess: onDone });
  };
  return (
    <form onSubmit={submit} aria-label="Coupon" className="space-y-3">
      <TextField label="Coupon name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
      <SelectField label="Coupon kind" value={kind} onChange={(e) => setKind(e.target.value === 'amount' ? 'amount' : e.target.value === 'shipping' ? 'shipping' : 'percent')}>
        <option value="percent">Percent off</option>
        <option value="amount">Amount off</option>
        <option value="shipping">Free shipping</option>
      </SelectField>
      {kind !== 'shipping' && <TextField label="Coupon discount" required inputMode="decimal" value={value} onChange={(e) => setValue(e.target.value)} />}
      <TextField label="Coupon minimum subtotal" inputMode="decimal" value={minimum} onChange={(e) => setMinimum(e.target.value)} />
      <TextField label="Uses (optional)" inputMode="numeric" value={limit} onChange={(e) => setLimit(e.target.value)} />
      <TextField label="Last day (optional)" type="date" value={expires} onChange={(e) => setExpires(e.target.value)} />
      {localError && <p role="alert" className="text-sm text-rose-700">{localError}</p>}
      <ErrorAlert error={update.error} />
      <div className="flex justify-end gap-2">
        <button type="button" onClick={onDone} className={secondaryButton}>Cancel</button>
        <button disabled={update.isPending} className={primaryButton}>{update.isPending ? 'Saving…' : 'Save coupon'}</button>
      </div>
    </form>
  );
}
