import { useState, type FormEvent } from 'react';
import { useCheckoutSettings, useOrdersSettings, useUpdateCheckoutSettings, useUpdateOrdersSettings } from '@vitrine/react';
import type { checkoutSettings, ordersSettings } from '@vitrine/sdk/ecom';
import { ErrorAlert, Notice } from '../components/Alert';
import { Loaded } from '../components/Loaded';
import { CheckboxField, SelectField, TextField, primaryButton, clearsOutcome } from '../components/Form';

type Checkout = checkoutSettings.CheckoutSettings;
type PolicyKey = 'termsAndConditions' | 'privacyPolicy' | 'returnPolicy';
const POLICIES: { key: PolicyKey; label: string }[] = [
  { key: 'termsAndConditions', label: 'Terms and conditions' },
  { key: 'privacyPolicy', label: 'Privacy policy' },
  { key: 'returnPolicy', label: 'Return policy' },
];
/** Longest policy text the form takes (the server's bound is larger; this keeps the page usable). */
const POLICY_MAX = 10_000;

/** What the checkout page shows and asks, and when orders take stock. */
export function CheckoutOrdersSettings() {
  return (
    <div className="space-y-10">
      <OrdersSettingsForm />
      <CheckoutSettingsForm />
    </div>
  );
}

function OrdersSettingsForm() {
  const settings = useOrdersSettings();
  return (
    <section aria-labelledby="order-settings" className="space-y-4">
      <h2 id="order-settings" className="text-lg font-semibold">Orders</h2>
      <Loaded query={settings}>{(data) => <OrdersForm initial={data} />}</Loaded>
    </section>
  );
}

function OrdersForm({ initial }: { initial: ordersSettings.OrdersSettings }) {
  const update = useUpdateOrdersSettings();
  const [trigger, setTrigger] = useState<'ON_ORDER_PLACED' | 'ON_ORDER_PAID'>(initial.inventoryUpdateTrigger === 'ON_ORDER_PAID' ? 'ON_ORDER_PAID' : 'ON_ORDER_PLACED');
  const [invoice, setInvoice] = useState(initial.createInvoice);
  const submit = (e: FormEvent) => { e.preventDefault(); update.mutate({ inventoryUpdateTrigger: trigger, createInvoice: invoice }); };
  return (
      <form onSubmit={submit} {...clearsOutcome(update)} aria-label="Order settings" className="flex flex-wrap items-end gap-4 rounded-lg border border-slate-200 bg-white p-4">
        <SelectField label="Take stock when" value={trigger} onChange={(e) => setTrigger(e.target.value === 'ON_ORDER_PAID' ? 'ON_ORDER_PAID' : 'ON_ORDER_PLACED')}>
          <option value="ON_ORDER_PLACED">the order is placed</option>
          <option value="ON_ORDER_PAID">the order is paid</option>
        </SelectField>
        <CheckboxField label="Create an invoice for each order" checked={invoice} onChange={(e) => setInvoice(e.target.checked)} />
        <button disabled={update.isPending} className={primaryButton}>{update.isPending ? 'Saving…' : 'Save order settings'}</button>
        <div className="basis-full"><ErrorAlert error={update.error} />{update.isSuccess && !update.isPending && <Notice>Order settings saved.</Notice>}</div>
      </form>
  );
}

function CheckoutSettingsForm() {
  const settings = useCheckoutSettings();
  return (
    <section aria-labelledby="checkout-settings" className="space-y-4">
      <h2 id="checkout-settings" className="text-lg font-semibold">Checkout</h2>
      <Loaded query={settings}>{(data) => <CheckoutForm initial={data} />}</Loaded>
    </section>
  );
}

function policyOf(s: Checkout, key: PolicyKey): { visible: boolean; content: string } {
  return { visible: Boolean(s.checkoutPolicies[key]?.visible), content: s.checkoutPolicies[key]?.content ?? '' };
}

function CheckoutForm({ initial }: { initial: Checkout }) {
  const update = useUpdateCheckoutSettings();
  const [policies, setPolicies] = useState<Record<PolicyKey, { visible: boolean; content: string }>>(() => ({
    termsAndConditions: policyOf(initial, 'termsAndConditions'), privacyPolicy: policyOf(initial, 'privacyPolicy'), returnPolicy: policyOf(initial, 'returnPolicy'),
  }));
  const [agreement, setAgreement] = useState(Boolean(initial.checkoutFields.policyAgreementCheckbox?.visible));
  const [header, setHeader] = useState(initial.checkoutBrand.header?.text ?? '');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    update.mutate({
      checkoutPolicies: policies,
      checkoutFields: { policyAgreementCheckbox: { visible: agreement } },
      checkoutBrand: { header: { text: header } },
    });
  };
  return (
      <form onSubmit={submit} {...clearsOutcome(update)} aria-label="Checkout settings" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
        <TextField label="Checkout header text" maxLength={200} value={header} onChange={(e) => setHeader(e.target.value)} />
        <CheckboxField label="Ask buyers to agree to the policies" checked={agreement} onChange={(e) => setAgreement(e.target.checked)} />
        {POLICIES.map(({ key, label }) => (
          <fieldset key={key} className="space-y-2">
            <legend className="text-sm font-medium">{label}</legend>
            <CheckboxField label={`Show the ${label.toLowerCase()} at checkout`} checked={policies[key].visible}
              onChange={(e) => setPolicies((p) => ({ ...p, [key]: { ...p[key], visible: e.target.checked } }))} />
            <label className="block text-sm">{`Text of the ${label.toLowerCase()}`}
              <textarea maxLength={POLICY_MAX} rows={3} value={policies[key].content} className="mt-1 block w-full rounded border border-slate-300 px-3 py-1.5 text-sm"
                onChange={(e) => setPolicies((p) => ({ ...p, [key]: { ...p[key], content: e.target.value } }))} />
            </label>
          </fieldset>
        ))}
        <button disabled={update.isPending} className={primaryButton}>{update.isPending ? 'Saving…' : 'Save checkout settings'}</button>
        <ErrorAlert error={update.error} />
        {update.isSuccess && !update.isPending && <Notice>Checkout settings saved.</Notice>}
      </form>
  );
}
