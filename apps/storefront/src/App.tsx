import { Link, Route, Routes } from 'react-router';
import { CatalogPage } from './pages/CatalogPage';
import { ProductPage } from './pages/ProductPage';
import { AccountPage } from './pages/AccountPage';
import { CallbackPage } from './pages/CallbackPage';
import { CALLBACK_PATH, startSignIn } from './client';
import { useAuth } from '@vitrine/react';

export function App() {
  const { loggedIn } = useAuth();
  return (
    <div className="min-h-screen flex flex-col">
      <header className="border-b border-stone-200 bg-white">
        <div className="mx-auto max-w-6xl px-6 py-4 flex items-center gap-6">
          <Link to="/" className="text-xl font-semibold tracking-tight">Vitrine Demo Store</Link>
          <nav className="text-sm text-stone-600 flex gap-4">
            <Link to="/" className="hover:text-stone-900">Shop</Link>
          </nav>
          <div className="ml-auto text-sm">
            {loggedIn
              ? <Link to="/account" className="rounded-md border border-stone-300 px-3 py-1.5" data-testid="account-link">My account</Link>
              : <button onClick={() => void startSignIn()} className="rounded-md bg-stone-900 px-3 py-1.5 font-medium text-white">Sign in</button>}
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl w-full px-6 py-8 flex-1">
        <Routes>
          <Route path="/" element={<CatalogPage />} />
          <Route path="/product-page/:slug" element={<ProductPage />} />
          <Route path="/account" element={<AccountPage />} />
          <Route path={CALLBACK_PATH} element={<CallbackPage />} />
          <Route path="*" element={<p>Page not found. <Link className="underline" to="/">Back to the shop</Link></p>} />
        </Routes>
      </main>
      <footer className="border-t border-stone-200 text-xs text-stone-500 py-6 text-center">Powered by Vitrine</footer>
    </div>
  );
}
