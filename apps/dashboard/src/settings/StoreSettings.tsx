import { useState, type FormEvent } from 'react';
import { useSiteDetails, useUpdateSiteDetails } from '@vitrine/react';
import type { site } from '@vitrine/sdk/owners';
import { ErrorAlert, Notice } from '../components/Alert';
import { Loaded } from '../components/Loaded';
import { CheckboxField, SelectField, TextField, primaryButton, clearsOutcome } from '../components/Form';

const CAPTCHA: { value: site.SiteCaptchaMode; label: string }[] = [
  { value: 'off', label: 'Off' },
  { value: 'invisible', label: 'Invisible (solved by the browser)' },
  { value: 'visible', label: 'Visible check' },
];

/** The store's name and notice e-mail, and how members sign up (verification, approval, captcha). */
export function StoreSettings() {
  const details = useSiteDetails();
  return <Loaded query={details}>{(data) => <StoreForm initial={data} />}</Loaded>;
}

function StoreForm({ initial }: { initial: site.Site }) {
  const update = useUpdateSiteDetails();
  const [name, setName] = useState(initial.name);
  const [ownerEmail, setOwnerEmail] = useState(initial.ownerEmail);
  const [verify, setVerify] = useState(initial.requireEmailVerification);
  const [approve, setApprove] = useState(initial.requireOwnerApproval);
  const [captcha, setCaptcha] = useState<site.SiteCaptchaMode>(initial.captcha);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    update.mutate({ name: name.trim(), ownerEmail: ownerEmail.trim(), requireEmailVerification: verify, requireOwnerApproval: approve, captcha });
  };
  return (
    <form onSubmit={submit} {...clearsOutcome(update)} aria-label="Store and members" className="space-y-8">
      <section aria-labelledby="store-details" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="store-details" className="text-lg font-semibold">Store details</h2>
        <TextField label="Store name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        <TextField label="E-mail for order and webhook notices" type="email" value={ownerEmail} onChange={(e) => setOwnerEmail(e.target.value)} />
        <p className="text-sm text-slate-600">Site <span className="font-mono">{initial.slug}</span>, prices in {initial.currency}.</p>
      </section>
      <section aria-labelledby="member-signup" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="member-signup" className="text-lg font-semibold">Member sign-up</h2>
        <CheckboxField label="New members verify their e-mail before they can log in" checked={verify} onChange={(e) => setVerify(e.target.checked)} />
        <CheckboxField label="New members wait for my approval" checked={approve} onChange={(e) => setApprove(e.target.checked)} />
        <SelectField label="Captcha on sign-up and login" value={captcha} onChange={(e) => setCaptcha(CAPTCHA.find((c) => c.value === e.target.value)?.value ?? 'off')}>
          {CAPTCHA.map((c) => <option key={c.value} value={c.value}>{c.label}</option>)}
        </SelectField>
      </section>
      <div className="space-y-2">
        <button disabled={update.isPending} className={primaryButton}>{update.isPending ? 'Saving…' : 'Save store settings'}</button>
        <ErrorAlert error={update.error} />
        {update.isSuccess && !update.isPending && <Notice>Store settings saved.</Notice>}
      </div>
    </form>
  );
}
