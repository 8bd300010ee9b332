import { useEffect, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { NavLink, Navigate, Route, Routes } from 'react-router';
import { VitrineProvider } from '@vitrine/react';
import { UNAUTHORIZED_EVENT, loadSession, ownerClient, saveSession, type OwnerSession } from './session';
import { SignIn } from './pages/SignIn';
import { ProductsPage } from './pages/ProductsPage';
import { CollectionsPage } from './pages/CollectionsPage';
import { MembersPage } from './pages/MembersPage';
import { ReportsPage } from './pages/ReportsPage';
import { DataCollectionsPage } from './pages/DataCollectionsPage';
import { DataItemsPage } from './pages/DataItemsPage';
import { WebhooksPage } from './pages/WebhooksPage';
import { DeliveriesPage } from './pages/DeliveriesPage';
import { MailboxPage } from './pages/MailboxPage';

const SECTIONS = [
  { to: '/products', label: 'Products' },
  { to: '/collections', label: 'Collections' },
  { to: '/members', label: 'Members' },
  { to: '/reports', label: 'Reports' },
  { to: '/data', label: 'Data' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/mailbox', label: 'Mailbox' },
];

export function App() {
  const queryClient = useQueryClient();
  const [session, setSession] = useState<OwnerSession | undefined>(loadSession);
  const [refused, setRefused] = useState(false);
  useEffect(() => {
    const onRefused = () => setRefused(true);
    window.addEventListener(UNAUTHORIZED_EVENT, onRefused);
    return () => window.removeEventListener(UNAUTHORIZED_EVENT, onRefused);
  }, []);

  const client = useMemo(() => (session ? ownerClient(session) : undefined), [session]);
  if (!session || !client) {
    return <SignIn onSignIn={(s) => { saveSession(s); setSession(s); }} />;
  }
  const signOut = () => { saveSession(undefined); queryClient.clear(); setRefused(false); setSession(undefined); };
  return (
    <VitrineProvider client={client} queryClient={queryClient}>
      <div className="flex min-h-screen">
        <aside className="w-56 shrink-0 border-r border-slate-200 bg-white p-4">
          <p className="mb-6 text-lg font-semibold">Vitrine</p>
          <nav aria-label="Sections" className="flex flex-col gap-1 text-sm">
            {SECTIONS.map((s) => (
              <NavLink key={s.to} to={s.to} className={({ isActive }) => `rounded px-3 py-2 ${isActive ? 'bg-slate-900 text-white' : 'hover:bg-slate-100'}`}>{s.label}</NavLink>
            ))}
            <a className="rounded px-3 py-2 hover:bg-slate-100" href="/docs">API reference</a>
          </nav>
          <button type="button" className="mt-8 text-xs text-slate-500 underline" onClick={signOut}>Sign out</button>
        </aside>
        <main className="min-w-0 flex-1 p-8">
          {refused && (
            <div role="alert" className="mb-6 flex items-center gap-4 rounded border border-rose-300 bg-rose-50 px-4 py-3 text-sm text-rose-900">
              The server refused this API key (revoked or deleted).
              <button type="button" onClick={signOut} className="ml-auto rounded bg-rose-700 px-3 py-1 text-white">Sign in again</button>
            </div>
          )}
          <Routes>
            <Route path="/products" element={<ProductsPage />} />
            <Route path="/collections" element={<CollectionsPage />} />
            <Route path="/members" element={<MembersPage />} />
            <Route path="/reports" element={<ReportsPage />} />
            <Route path="/data" element={<DataCollectionsPage />} />
            <Route path="/data/:collectionId" element={<DataItemsPage />} />
            <Route path="/webhooks" element={<WebhooksPage />} />
            <Route path="/webhooks/:subscriptionId" element={<DeliveriesPage />} />
            <Route path="/mailbox" element={<MailboxPage />} />
            <Route path="*" element={<Navigate to="/products" replace />} />
          </Routes>
        </main>
      </div>
    </VitrineProvider>
  );
}
