import { useState, type FormEvent } from 'react';
import { bindModule } from '@vitrine/sdk';
import { products } from '@vitrine/sdk/stores';
import { errorText, ownerClient, type OwnerSession } from '../session';

/** Owners sign in with an API key of their site (`vitrine create-api-key --site <slug>`). */
export function SignIn({ onSignIn }: { onSignIn: (session: OwnerSession) => void }) {
  const [apiKey, setApiKey] = useState('');
  const [siteId, setSiteId] = useState('');
  const [error, setError] = useState<string>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    const session = { apiKey: apiKey.trim(), siteId: siteId.trim() };
    try {
      // Any owner-readable call proves the key: one product of the site.
      await bindModule(products, ownerClient(session)).queryProducts().limit(1).find();
    } catch (e) {
      setError(errorText(e) || 'Sign-in failed');
      return;
    }
    onSignIn(session);
  }

  return (
    <div className="flex min-h-screen items-center justify-center">
      <form onSubmit={submit} className="w-full max-w-sm space-y-4 rounded-lg border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="text-xl font-semibold">Owner dashboard</h1>
        <p className="text-sm text-slate-600">Run <code className="rounded bg-slate-100 px-1">npm run vitrine -- create-api-key --site demo --json</code> and paste the result.</p>
        <label className="block text-sm">API key<input required value={apiKey} onChange={(e) => setApiKey(e.target.value)} className="mt-1 w-full rounded border border-slate-300 px-3 py-2 font-mono text-xs" /></label>
        <label className="block text-sm">Site id<input required value={siteId} onChange={(e) => setSiteId(e.target.value)} className="mt-1 w-full rounded border border-slate-300 px-3 py-2 font-mono text-xs" /></label>
        {error && <p role="alert" className="text-sm text-rose-700">{error}</p>}
        <button className="w-full rounded bg-slate-900 py-2 text-sm font-medium text-white">Sign in</button>
      </form>
    </div>
  );
}
