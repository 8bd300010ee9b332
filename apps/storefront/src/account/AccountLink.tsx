import { Link } from '../router';
import { useAuth } from '@vitrine/react';
import { useHydrated } from '../hydrated';
import { startSignIn } from '../browser';

/** "Sign in" for visitors, "My account" for members (tokens are known only in the browser). */
export function AccountLink() {
  const { loggedIn } = useAuth();
  const hydrated = useHydrated();
  if (hydrated && loggedIn) {
    return <Link to="/account" className="rounded-md border border-stone-400 px-3 py-1.5" data-testid="account-link">My account</Link>;
  }
  return <button type="button" onClick={() => void startSignIn()} className="rounded-md border border-stone-400 px-3 py-1.5">Sign in</button>;
}
