import { useEffect, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { NavLink, Navigate, Route, Routes, useLocation } from 'react-router';
import { VitrineProvider, useOwnerAccount } from '@vitrine/react';
import { bindModule } from '@vitrine/sdk';
import { account } from '@vitrine/sdk/owners';
import { UNAUTHORIZED_EVENT, loadSession, ownerClient, saveSession, type OwnerSession } from './session';
import { SignIn } from './pages/SignIn';
import { ProductsPage } from './pages/ProductsPage';
import { ProductEditorPage } from './pages/ProductEditorPage';
import { ProductsV3Page } from './pages/ProductsV3Page';
import { ProductV3EditorPage } from './pages/ProductV3EditorPage';
import { CollectionsPage } from './pages/CollectionsPage';
import { MembersPage } from './pages/MembersPage';
import { ReportsPage } from './pages/ReportsPage';
import { DataCollectionsPage } from './pages/DataCollectionsPage';
import { DataItemsPage } from './pages/DataItemsPage';
import { WebhooksPage } from './pages/WebhooksPage';
import { DeliveriesPage } from './pages/DeliveriesPage';
import { MailboxPage } from './pages/MailboxPage';
import { SettingsPage } from './pages/SettingsPage';
import { OrdersPage } from './pages/OrdersPage';
import { OrderPage } from './orders/OrderPage';
import { AbandonedCheckoutsPage } from './orders/AbandonedCheckoutsPage';
import { OverviewPage } from './overview/OverviewPage';
import { SettingsFrame } from './settings/SettingsNav';
import { DiscountsSettings } from './settings/DiscountsSettings';
import { StoreSettings } from './settings/StoreSettings';
import { ShippingTaxSettings } from './settings/ShippingTaxSettings';
import { CheckoutOrdersSettings } from './settings/CheckoutOrdersSettings';

/** Sections by the area a staff account needs for them (owners see all). */
const SECTIONS = [
  { to: '/', label: 'Overview', area: 'orders' },
  { to: '/orders', label: 'Orders', area: 'orders' },
  { to: '/products', label: 'Products', area: 'catalog' },
  { to: '/collections', label: 'Collections', area: 'catalog' },
  { to: '/members', label: 'Members', area: 'members' },
  { to: '/reports', label: 'Reports', area: 'members' },
  { to: '/data', label: 'Data', area: 'data' },
  { to: '/webhooks', label: 'Webhooks', area: 'settings' },
  { to: '/mailbox', label: 'Mailbox', area: 'settings' },
  { to: '/settings', label: 'Settings', area: undefined },
] as const;

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
  const signOut = () => {
    // End the server session too; the local sign-out happens whatever the answer.
    void bindModule(account, client).signOut().catch(() => undefined);
    saveSession(undefined); queryClient.clear(); setRefused(false); setSession(undefined);
  };
  return (
    <VitrineProvider client={client} queryClient={queryClient}>
      <Shell refused={refused} signOut={signOut} />
    </VitrineProvider>
  );
}

/** Where an account that may not see the overview lands: its first section (Settings at least). */
function FirstSection({ allowed }: { allowed: (area: string | undefined) => boolean }) {
  const first = SECTIONS.find((s) => s.to !== '/' && allowed(s.area));
  return <Navigate to={first?.to ?? '/settings'} replace />;
}

function Shell({ refused, signOut }: { refused: boolean; signOut: () => void }) {
  const me = useOwnerAccount();
  const allowed = (area: string | undefined): boolean => !area || me.data?.role === 'owner' || Boolean((me.data?.permissions as readonly string[] | undefined)?.includes(area));
  // Below the md breakpoint the sidebar folds behind a Menu button; moving to another page folds it again.
  const [menuOpen, setMenuOpen] = useState(false);
  const { pathname } = useLocation();
  useEffect(() => setMenuOpen(false), [pathname]);
  return (
      <div className="min-h-screen md:flex">
        <a href="#main" className="sr-only z-50 rounded bg-slate-900 px-3 py-2 text-sm text-white focus:not-sr-only focus:absolute focus:left-2 focus:top-2">Skip to main content</a>
        <header className="flex items-center gap-3 border-b border-slate-200 bg-white px-4 py-2 md:hidden">
          <button type="button" aria-expanded={menuOpen} aria-controls="sidebar" onClick={() => setMenuOpen((o) => !o)}
            className="rounded border border-slate-300 px-3 py-1.5 text-sm">Menu</button>
          <span className="font-semibold">Vitrine</span>
        </header>
        <aside id="sidebar" className={`${menuOpen ? 'block' : 'hidden'} border-b border-slate-200 bg-white p-4 md:block md:w-56 md:shrink-0 md:border-b-0 md:border-r`}>
          <p className="mb-1 hidden text-lg font-semibold md:block">Vitrine</p>
          <p data-testid="signed-in-as" className="mb-6 truncate text-xs text-slate-600">{me.data ? `${me.data.name} (${me.data.role})` : ' '}</p>
          <nav aria-label="Sections" className="flex flex-col gap-1 text-sm">
            {SECTIONS.filter((s) => allowed(s.area)).map((s) => (
              <NavLink key={s.to} to={s.to} end={s.to === '/'} className={({ isActive }) => `rounded px-3 py-2 ${isActive ? 'bg-slate-900 text-white' : 'hover:bg-slate-100'}`}>{s.label}</NavLink>
            ))}
            <a className="rounded px-3 py-2 hover:bg-slate-100" href="/docs">API reference</a>
          </nav>
          <button type="button" className="mt-8 text-xs text-slate-600 underline" onClick={signOut}>Sign out</button>
        </aside>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 p-4 outline-none md:p-8">
          {refused && (
            <div role="alert" className="mb-6 flex items-center gap-4 rounded border border-rose-300 bg-rose-50 px-4 py-3 text-sm text-rose-900">
              Your session ended (signed out elsewhere, expired, or the account changed).
              <button type="button" onClick={signOut} className="ml-auto rounded bg-rose-700 px-3 py-1 text-white">Sign in again</button>
            </div>
          )}
          <Routes>
            <Route path="/products" element={<ProductsPage />} />
            <Route path="/products/:productId" element={<ProductEditorPage />} />
            <Route path="/products-v3" element={<ProductsV3Page />} />
            <Route path="/products-v3/:productId" element={<ProductV3EditorPage />} />
            <Route path="/collections" element={<CollectionsPage />} />
            <Route path="/members" element={<MembersPage />} />
            <Route path="/reports" element={<ReportsPage />} />
            <Route path="/data" element={<DataCollectionsPage />} />
            <Route path="/data/:collectionId" element={<DataItemsPage />} />
            <Route path="/webhooks" element={<WebhooksPage />} />
            <Route path="/webhooks/:subscriptionId" element={<DeliveriesPage />} />
            <Route path="/mailbox" element={<MailboxPage />} />
            <Route path="/settings" element={<SettingsPage />} />
            <Route path="/settings/store" element={<SettingsFrame><StoreSettings /></SettingsFrame>} />
            <Route path="/settings/discounts" element={<SettingsFrame><DiscountsSettings /></SettingsFrame>} />
            <Route path="/settings/shipping-tax" element={<SettingsFrame><ShippingTaxSettings /></SettingsFrame>} />
            <Route path="/settings/checkout" element={<SettingsFrame><CheckoutOrdersSettings /></SettingsFrame>} />
            <Route path="/orders" element={<OrdersPage />} />
            <Route path="/orders/abandoned" element={<AbandonedCheckoutsPage />} />
            <Route path="/orders/:orderId" element={<OrderPage />} />
            <Route path="/" element={!me.data ? null : allowed('orders') ? <OverviewPage /> : <FirstSection allowed={allowed} />} />
            <Route path="*" element={<Navigate to="/" replace />} />
          </Routes>
        </main>
      </div>
  );
}
