import { useState, type FormEvent } from 'react';
import {
  useApiKeys, useChangeOwnerPassword, useCreateApiKey, useCreateOAuthClient, useCreateStaffAccount, useDeleteOAuthClient,
  useDeleteStaffAccount, useOAuthClients, useOwnerAccount, useOwnerSessions, useRevokeApiKey, useRevokeOwnerSession, useStaffAccounts,
  useUpdateStaffAccount,
} from '@vitrine/react';
import { staff, type account, type credentials } from '@vitrine/sdk/owners';
import { ErrorAlert, Notice } from '../components/Alert';
import { ConfirmButton } from '../components/ConfirmButton';
import { DataTable, type Column } from '../components/DataTable';
import { CheckboxField, SelectField, TextField, formatDate, primaryButton, secondaryButton, clearsOutcome } from '../components/Form';
import { StatusBadge } from '../components/StatusBadge';
import { SettingsFrame } from '../settings/SettingsNav';
import { isWrongPassword } from '../session';
import { useLocked } from '../components/useLocked';

type Area = (typeof staff.OWNER_AREAS)[number];

/** Settings: the account's own sign-in, staff accounts, and the site's API keys and OAuth clients. */
export function SettingsPage() {
  const me = useOwnerAccount();
  const isOwner = me.data?.role === 'owner';
  const mayManageKeys = isOwner || me.data?.permissions.includes('settings');
  return (
    <SettingsFrame>
      <div className="space-y-10">
        <YourAccount />
        {isOwner && <StaffAccounts />}
        {mayManageKeys && <ApiKeys />}
        {mayManageKeys && <OAuthClients />}
      </div>
    </SettingsFrame>
  );
}

function YourAccount() {
  const sessions = useOwnerSessions();
  const revoke = useRevokeOwnerSession();
  const change = useChangeOwnerPassword();
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNext] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    change.mutate({ currentPassword, newPassword }, { onSuccess: () => { setCurrent(''); setNext(''); } });
  };
  const columns: Column<account.OwnerSession>[] = [
    { header: 'Signed in', cell: (s) => formatDate(s._createdDate) },
    { header: 'From', cell: (s) => <span className="font-mono text-xs">{s.ip}</span> },
    { header: 'Expires', cell: (s) => formatDate(s.expiresDate) },
    {
      header: 'Actions',
      cell: (s) => s.current
        ? <span className="text-xs text-slate-500">this session</span>
        : <ConfirmButton label="Sign out" ariaLabel={`Sign out session from ${s.ip}`} title="End session" confirmLabel="End session"
            message={`End the session signed in from ${s.ip}? It is signed out at once.`} onConfirm={() => revoke.mutateAsync(s._id)} />,
    },
  ];
  return (
    <section aria-labelledby="your-account" className="space-y-4">
      <h2 id="your-account" className="text-lg font-semibold">Your account</h2>
      <DataTable label="Sessions" columns={columns} rows={sessions.data} rowKey={(s) => s._id} rowTestId="session-row" isLoading={sessions.isLoading} error={sessions.error} empty="No sessions." />
      <form onSubmit={submit} {...clearsOutcome(change)} aria-label="Change password" className="flex flex-wrap items-end gap-3">
        <TextField label="Current password" type="password" autoComplete="current-password" required value={currentPassword} onChange={(e) => setCurrent(e.target.value)} />
        <TextField label="New password" type="password" autoComplete="new-password" required minLength={8} value={newPassword} onChange={(e) => setNext(e.target.value)} />
        <button disabled={change.isPending} className={primaryButton}>Change password</button>
        <div className="basis-full">
          <ErrorAlert error={change.error} text={isWrongPassword(change.error) ? 'The current password is wrong.' : undefined} />
          {change.isSuccess && <Notice>Password changed; your other sessions were signed out.</Notice>}
        </div>
      </form>
    </section>
  );
}

function AreaChecks({ value, onChange, name }: { value: Area[]; onChange: (next: Area[]) => void; name: string }) {
  return (
    <fieldset className="flex flex-wrap gap-3">
      <legend className="sr-only">Areas of {name}</legend>
      {staff.OWNER_AREAS.map((area) => (
        <CheckboxField key={area} label={area} aria-label={`${area} for ${name}`} checked={value.includes(area)}
          onChange={(e) => onChange(e.target.checked ? [...value, area] : value.filter((a) => a !== area))} />
      ))}
    </fieldset>
  );
}

function StaffAccounts() {
  const accounts = useStaffAccounts();
  const create = useLocked(useCreateStaffAccount());
  const update = useUpdateStaffAccount();
  const remove = useDeleteStaffAccount();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<'owner' | 'staff'>('staff');
  const [areas, setAreas] = useState<Area[]>([]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ email: email.trim(), password, role, permissions: role === 'staff' ? areas : [] }, { onSuccess: () => { setEmail(''); setPassword(''); setAreas([]); } });
  };
  const columns: Column<account.OwnerAccount>[] = [
    { header: 'E-mail', cell: (a) => a.email },
    { header: 'Role', cell: (a) => <StatusBadge value={a.role.toUpperCase()} /> },
    {
      header: 'Areas',
      cell: (a) => a.role === 'owner' ? 'all' : <AreaChecks name={a.email} value={a.permissions} onChange={(permissions) => update.mutate({ _id: a._id, account: { permissions } })} />,
    },
    { header: 'Two-factor', cell: (a) => (a.totpEnabled ? 'on' : 'off') },
    {
      header: 'Actions',
      cell: (a) => <ConfirmButton label="Delete" ariaLabel={`Delete account ${a.email}`} title="Delete account" confirmLabel="Delete account"
        message={`Delete the account ${a.email}? Its sessions end at once.`} onConfirm={() => remove.mutateAsync(a._id)} />,
    },
  ];
  return (
    <section aria-labelledby="staff" className="space-y-4">
      <h2 id="staff" className="text-lg font-semibold">Owners and staff</h2>
      <ErrorAlert error={update.error} />
      <DataTable label="Accounts" columns={columns} rows={accounts.data} rowKey={(a) => a._id} rowTestId="account-row" isLoading={accounts.isLoading} error={accounts.error} empty="No accounts." />
      <form onSubmit={submit} aria-label="New account" className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4">
        <TextField label="E-mail" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <TextField label="Password" type="password" autoComplete="new-password" required minLength={8} value={password} onChange={(e) => setPassword(e.target.value)} />
        <SelectField label="Role" value={role} onChange={(e) => setRole(e.target.value === 'owner' ? 'owner' : 'staff')}>
          <option value="staff">Staff</option>
          <option value="owner">Owner</option>
        </SelectField>
        {role === 'staff' && <AreaChecks name="the new account" value={areas} onChange={setAreas} />}
        <button disabled={create.isPending} className={primaryButton}>Add account</button>
        <div className="basis-full"><ErrorAlert error={create.error} /></div>
      </form>
    </section>
  );
}

function ApiKeys() {
  const keys = useApiKeys();
  const create = useLocked(useCreateApiKey());
  const revoke = useRevokeApiKey();
  const [name, setName] = useState('');
  const [shown, setShown] = useState<string>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setShown(undefined);
    create.mutate(name.trim(), { onSuccess: (res) => { setShown(res.key); setName(''); } });
  };
  const columns: Column<credentials.SiteApiKey>[] = [
    { header: 'Name', cell: (k) => k.name },
    { header: 'Created', cell: (k) => formatDate(k._createdDate) },
    { header: 'Status', cell: (k) => (k.revokedDate ? <StatusBadge value="REVOKED" /> : <StatusBadge value="ACTIVE" />) },
    {
      header: 'Actions',
      cell: (k) => k.revokedDate ? null : <ConfirmButton label="Revoke" ariaLabel={`Revoke API key ${k.name}`} title="Revoke API key" confirmLabel="Revoke key"
        message={`Revoke the API key "${k.name}"? Anything using it stops working.`} onConfirm={() => revoke.mutateAsync(k._id)} />,
    },
  ];
  return (
    <section aria-labelledby="api-keys" className="space-y-4">
      <h2 id="api-keys" className="text-lg font-semibold">API keys</h2>
      <DataTable label="API keys" columns={columns} rows={keys.data} rowKey={(k) => k._id} rowTestId="api-key-row" isLoading={keys.isLoading} error={keys.error} empty="No API keys." />
      <form onSubmit={submit} aria-label="New API key" className="flex flex-wrap items-end gap-3">
        <TextField label="Key name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        <button disabled={create.isPending} className={primaryButton}>Create API key</button>
        <div className="basis-full"><ErrorAlert error={create.error} /></div>
      </form>
      {shown && (
        <div role="status" aria-label="New API key" className="rounded border border-amber-300 bg-amber-50 p-4 text-sm">
          <p className="font-medium">Copy the key now: it is shown only once.</p>
          <code data-testid="new-api-key" className="mt-2 block break-all rounded bg-white px-2 py-1 font-mono text-xs">{shown}</code>
          <button type="button" className={`${secondaryButton} mt-2`} onClick={() => setShown(undefined)}>I have saved it</button>
        </div>
      )}
    </section>
  );
}

function OAuthClients() {
  const clients = useOAuthClients();
  const create = useLocked(useCreateOAuthClient());
  const remove = useDeleteOAuthClient();
  const [name, setName] = useState('');
  const [uris, setUris] = useState('');
  const [localhost, setLocalhost] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const redirectUris = uris.split(/\s+/).filter(Boolean);
    create.mutate({ name: name.trim(), redirectUris, allowLocalhost: localhost }, { onSuccess: () => { setName(''); setUris(''); setLocalhost(false); } });
  };
  const columns: Column<credentials.SiteOAuthClient>[] = [
    { header: 'Name', cell: (c) => c.name },
    { header: 'Client id', cell: (c) => <span className="font-mono text-xs">{c._id}</span> },
    { header: 'Redirect URIs', cell: (c) => <ul className="font-mono text-xs">{c.redirectUris.map((u) => <li key={u}>{u}</li>)}</ul> },
    { header: 'Created', cell: (c) => formatDate(c._createdDate) },
    {
      header: 'Actions',
      cell: (c) => <ConfirmButton label="Delete" ariaLabel={`Delete OAuth client ${c.name}`} title="Delete OAuth client" confirmLabel="Delete client"
        message={`Delete the OAuth client "${c.name}"? Sites and apps using its id can no longer sign visitors or members in.`} onConfirm={() => remove.mutateAsync(c._id)} />,
    },
  ];
  return (
    <section aria-labelledby="oauth-clients" className="space-y-4">
      <h2 id="oauth-clients" className="text-lg font-semibold">OAuth clients</h2>
      <DataTable label="OAuth clients" columns={columns} rows={clients.data} rowKey={(c) => c._id} rowTestId="oauth-client-row" isLoading={clients.isLoading} error={clients.error} empty="No OAuth clients." />
      <form onSubmit={submit} aria-label="New OAuth client" className="flex flex-wrap items-end gap-3">
        <TextField label="Client name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        <TextField label="Redirect URIs (space separated)" value={uris} onChange={(e) => setUris(e.target.value)} className="min-w-72 flex-1" />
        <CheckboxField label="Allow localhost redirects" checked={localhost} onChange={(e) => setLocalhost(e.target.checked)} />
        <button disabled={create.isPending} className={primaryButton}>Create OAuth client</button>
        <div className="basis-full"><ErrorAlert error={create.error} /></div>
      </form>
    </section>
  );
}
