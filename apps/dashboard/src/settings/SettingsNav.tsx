import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { PageHeader } from '../components/Form';
import { ownerTimeZone } from '../lib/time';

/** The parts of Settings, each its own route so a link or a reload lands on it. */
export const SETTINGS_TABS = [
  { to: '/settings', label: 'Account and access' },
  { to: '/settings/store', label: 'Store and members' },
  { to: '/settings/discounts', label: 'Discounts and coupons' },
  { to: '/settings/shipping-tax', label: 'Shipping and tax' },
  { to: '/settings/checkout', label: 'Checkout and orders' },
] as const;

/** Settings' heading, its part navigation and the time-zone note every part shares. */
export function SettingsFrame({ children }: { children: ReactNode }) {
  return (
    <section className="space-y-8">
      <PageHeader title="Settings" />
      <nav aria-label="Settings" className="-mt-4 flex flex-wrap gap-2 border-b border-slate-200 pb-2 text-sm">
        {SETTINGS_TABS.map((t) => (
          <NavLink key={t.to} to={t.to} end className={({ isActive }) => `rounded px-3 py-1.5 ${isActive ? 'bg-slate-900 text-white' : 'hover:bg-slate-100'}`}>{t.label}</NavLink>
        ))}
      </nav>
      <p className="text-sm text-slate-600">Times are shown in your time zone, {ownerTimeZone()}.</p>
      {children}
    </section>
  );
}
