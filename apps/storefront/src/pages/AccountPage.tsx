import { useAuth, useCurrentMember } from '@vitrine/react';
import { signOut, startSignIn } from '../browser';
import { useHydrated } from '../hydrated';
import { Meta } from '../components/Meta';

export function AccountPage() {
  const { loggedIn: signedIn } = useAuth();
  // Tokens live in the browser: the server (and the first render) show the signed-out form.
  const loggedIn = useHydrated() && signedIn;
  const me = useCurrentMember({ fieldsets: ['FULL'], enabled: loggedIn });
  if (!loggedIn) {
    return (
      <section className="max-w-md">
        <Meta title="Your account" description="Your profile, addresses and orders." path="/account" noindex />
        <h1 className="text-2xl font-semibold">Your account</h1>
        <p className="mt-2 text-stone-700">Sign in or create an account to see your profile.</p>
        <button onClick={() => void startSignIn()} className="mt-4 rounded-md bg-stone-900 px-5 py-2 text-sm font-medium text-white">Sign in</button>
      </section>
    );
  }
  const member = me.data;
  return (
    <section className="max-w-md">
      <h1 className="text-2xl font-semibold">Your account</h1>
      {me.isPending && <p className="text-stone-700">Loading…</p>}
      {me.isError && <p role="alert">{me.error.message}</p>}
      {member && (
        <dl className="mt-4 grid grid-cols-3 gap-2 text-sm">
          <dt className="text-stone-700">E-mail</dt><dd className="col-span-2" data-testid="member-email">{member.loginEmail}</dd>
          <dt className="text-stone-700">Name</dt><dd className="col-span-2">{[member.contact?.firstName, member.contact?.lastName].filter(Boolean).join(' ') || member.profile?.nickname}</dd>
          <dt className="text-stone-700">Status</dt><dd className="col-span-2">{member.status}</dd>
        </dl>
      )}
      <button onClick={() => void signOut()} className="mt-6 rounded-md border border-stone-300 px-5 py-2 text-sm">Sign out</button>
    </section>
  );
}
