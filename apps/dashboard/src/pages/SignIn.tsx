import { useState, type FormEvent } from 'react';
import { bindModule, VitrineError } from '@vitrine/sdk';
import { account } from '@vitrine/sdk/owners';
import { anonymousClient, errorText, type OwnerSession } from '../session';

/**
 * Owners and staff sign in with e-mail and password (and a TOTP code when they turned it on). The
 * demo site's first owner is printed by the server's first start; `vitrine create-owner` makes more.
 */
export function SignIn({ onSignIn }: { onSignIn: (session: OwnerSession) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [totpCode, setTotpCode] = useState('');
  const [needsCode, setNeedsCode] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    setBusy(true);
    try {
      const answer = await bindModule(account, anonymousClient()).signIn({ email: email.trim(), password, ...(needsCode && totpCode ? { totpCode } : {}) });
      onSignIn({ sessionToken: answer.sessionToken, siteId: answer.siteId });
    } catch (e) {
      if (e instanceof VitrineError && e.code === 'TOTP_REQUIRED') setNeedsCode(true);
      setError(errorText(e) || 'Sign-in failed');
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="flex min-h-screen items-center justify-center">
      <form onSubmit={submit} className="w-full max-w-sm space-y-4 rounded-lg border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="text-xl font-semibold">Sign in to Vitrine</h1>
        <label className="block text-sm">E-mail<input required autoFocus type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} className="mt-1 w-full rounded border border-slate-300 px-3 py-2" /></label>
        <label className="block text-sm">Password<input required type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} className="mt-1 w-full rounded border border-slate-300 px-3 py-2" /></label>
        {needsCode && (
          <label className="block text-sm">Authenticator code<input required inputMode="numeric" autoComplete="one-time-code" pattern="\d{6}" maxLength={6} value={totpCode} onChange={(e) => setTotpCode(e.target.value)} className="mt-1 w-full rounded border border-slate-300 px-3 py-2 font-mono" /></label>
        )}
        {error && <p role="alert" className="text-sm text-rose-700">{error}</p>}
        <button disabled={busy} className="w-full rounded bg-slate-900 py-2 text-sm font-medium text-white disabled:opacity-50">{busy ? 'Signing in…' : 'Sign in'}</button>
        <p className="text-xs text-slate-600">No account yet? The server prints the demo owner's sign-in on its first start; <code className="rounded bg-slate-100 px-1">vitrine create-owner --site demo --email you@example.com</code> adds one.</p>
      </form>
    </main>
  );
}
