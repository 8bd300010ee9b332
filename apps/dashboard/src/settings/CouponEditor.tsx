import { useState, type FormEvent } from 'react';
import { useUpdateCoupon } from '@vitrine/react';
import type { coupons } from '@vitrine/sdk/ecom';
import { ErrorAlert } from '../components/Alert';
import { TextField, primaryButton, secondaryButton } from '../components/Form';
import { Modal } from '../components/Modal';
import { couponFields, couponTerms, describeCouponViolation, editableCoupon } from './coupon-fields';
import { CouponTermInputs } from './TermInputs';

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
  const [name, setName] = useState(coupon.specification.name);
  const [fields, setFields] = useState(() => couponFields(coupon.specification));
  const [localError, setLocalError] = useState<string>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setLocalError(undefined);
    const checked = couponTerms(fields);
    if ('error' in checked) { setLocalError(checked.error); return; }
    // Every term is sent: a cleared one as null, so the coupon loses it.
    update.mutate({ _id: coupon._id, specification: { name: name.trim(), ...checked.terms } }, { onSuccess: onDone });
  };
  return (
    <form onSubmit={submit} aria-label="Coupon" className="space-y-3">
      <TextField label="Coupon name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
      <CouponTermInputs fields={fields} onChange={setFields} layout="stacked" />
      {localError && <p role="alert" className="text-sm text-rose-700">{localError}</p>}
      <ErrorAlert error={update.error} describe={describeCouponViolation} />
      <div className="flex justify-end gap-2">
        <button type="button" onClick={onDone} className={secondaryButton}>Cancel</button>
        <button disabled={update.isPending} className={primaryButton}>{update.isPending ? 'Saving…' : 'Save coupon'}</button>
      </div>
    </form>
  );
}
