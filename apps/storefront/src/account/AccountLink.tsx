import { Link } from '../router';
import { useAuth } from '@vitrine/react';
import { useHydrated } from '../hydrated';

/**
 * "Sign in" for visitors, "My account" for members (tokens are known only in the browser). The
 * sign-in code loads on the click: most visitors never sign in.
 */
export function AccountLink() {
  const { loggedIn } = useAuth();
  const hydrated = useHydrated();
  if (hydrated && loggedIn) {
    return <Link to="/account" className="rounded-md border border-stone-400 px-3 py-1.5" data-testid="account-link">My account</Link>;
  }
  return <button type="button" onClick={() => void import('../sign-in').then((m) => m.startSignIn())} className="rounded-md border border-stone-400 px-3 py-1.5">Sign in</button>;
}
