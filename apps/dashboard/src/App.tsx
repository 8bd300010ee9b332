import { useMemo, useState } from 'react';
import { NavLink, Navigate, Route, Routes } from 'react-router';
import { loadSession, ownerClient, saveSession, type OwnerSession } from './session';
import { SignIn } from './pages/SignIn';
import { ProductsPage } from './pages/ProductsPage';

const SECTIONS = [
  { to: '/products', label: 'Products' },
];

export function App() {
  const [session, setSession] = useState<OwnerSession | undefined>(loadSession);
  const client = useMemo(() => (session ? ownerClient(session) : undefined), [session]);

  if (!session || !client) {
    return <SignIn onSignIn={(s) => { saveSession(s); setSession(s); }} />;
  }
  return (
    <div className="flex min-h-screen">
      <aside className="w-56 shrink-0 border-r border-slate-200 bg-white p-4">
        <p className="mb-6 text-lg font-semibold">Vitrine</p>
        <nav className="flex flex-col gap-1 text-sm">
          {SECTIONS.map((s) => (
            <NavLink key={s.to} to={s.to} className={({ isActive }) => `rounded px-3 py-2 ${isActive ? 'bg-slate-900 text-white' : 'hover:bg-slate-100'}`}>{s.label}</NavLink>
          ))}
          <a className="rounded px-3 py-2 hover:bg-slate-100" href="/docs">API reference</a>
        </nav>
        <button className="mt-8 text-xs text-slate-500 underline" onClick={() => { saveSession(undefined); setSession(undefined); }}>Sign out</button>
      </aside>
      <main className="flex-1 p-8">
        <Routes>
          <Route path="/products" element={<ProductsPage client={client} />} />
          <Route path="*" element={<Navigate to="/products" replace />} />
        </Routes>
      </main>
    </div>
  );
}
