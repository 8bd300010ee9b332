import { useState, type FormEvent } from 'react';
import { Link } from '../router';
import { useAuth, useCommunityMembership, useCurrentMember, useMyOrders, useUpdateMyMember, useUpdateMySlug } from '@vitrine/react';
import type { members } from '@vitrine/sdk/members';
import { signOut, startSignIn } from '../sign-in';
import { useHydrated } from '../hydrated';
import { Meta } from '../components/Meta';
import { readableError } from '../errors';
import { paymentLabel } from '../orders/order-view';

const input = 'mt-1 w-full rounded-md border border-stone-400 bg-white px-3 py-2 text-sm';
const button = 'rounded-md bg-stone-900 px-4 py-2 text-sm font-medium text-white disabled:opacity-60';

/** The members API's bounds on what these forms send (the server refuses longer text). */
const MAX = { name: 100, nickname: 100, slug: 100, url: 2000, addressLine: 200, addressField: 100 } as const;
/** The forms' labels by the field names the server's violations use. */
const LABELS = {
  firstName: 'First name', lastName: 'Last name', nickname: 'Display name', slug: 'Profile address', url: 'Photo URL',
  addressLine: 'Street and number', city: 'City', postalCode: 'Postal code', country: 'Country', addresses: 'Addresses',
};
const BY_CODE = { SLUG_ALREADY_EXISTS: 'This profile address is taken by another member: choose another.' };

export function AccountPage() {
  const { loggedIn: signedIn } = useAuth();
  // Tokens live in the browser: the server (and the first render) show the signed-out form.
  const loggedIn = useHydrated() && signedIn;
  const me = useCurrentMember({ fieldsets: ['FULL'], enabled: loggedIn });
  const meta = <Meta title="Your account" description="Your profile, addresses and orders." path="/account" noindex />;
  if (!loggedIn) {
    return (
      <section className="max-w-md">
        {meta}
        <h1 className="text-2xl font-semibold">Your account</h1>
        <p className="mt-2 text-stone-700">Sign in or create an account to see your profile.</p>
        <button type="button" onClick={() => void startSignIn()} className={`mt-4 ${button}`}>Sign in</button>
      </section>
    );
  }
  const member = me.data;
  return (
    <section className="max-w-2xl">
      {meta}
      <div className="flex flex-wrap items-center gap-4">
        <h1 className="text-2xl font-semibold">Your account</h1>
        <button type="button" onClick={() => void signOut()} className="ml-auto rounded-md border border-stone-400 px-4 py-2 text-sm">Sign out</button>
      </div>
      {me.isPending && <p className="mt-4 text-stone-700">Loading…</p>}
      {me.isError && <p role="alert" className="mt-4 rounded bg-rose-50 p-4 text-rose-900">{me.error.message}</p>}
      {member && (
        <>
          <p className="mt-2 text-sm text-stone-700">Signed in as <span data-testid="member-email">{member.loginEmail}</span></p>
          <Orders />
          <Profile member={member} />
          <Community member={member} />
          <Addresses key={`a-${member._updatedDate?.getTime()}`} member={member} />
        </>
      )}
    </section>
  );
}

function Profile({ member }: { member: members.Member }) {
  const update = useUpdateMyMember();
  const slug = useUpdateMySlug();
  const [saved, setSaved] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setSaved(false);
    const form = new FormData(e.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const photo = text('photo');
    await update.mutateAsync({
      _id: member._id,
      member: {
        contact: { firstName: text('firstName') || null, lastName: text('lastName') || null },
        profile: { nickname: text('nickname') || null, photo: photo ? { url: photo } : null },
      },
    });
    if (text('slug') && text('slug') !== member.profile?.slug) await slug.mutateAsync(text('slug'));
    setSaved(true);
  };
  const error = update.error ?? slug.error;
  return (
    <form onSubmit={(e) => void submit(e).catch(() => undefined)} className="mt-8 rounded-lg border border-stone-200 bg-white p-5" aria-labelledby="profile-title">
      <h2 id="profile-title" className="text-lg font-semibold">Profile</h2>
      <div className="mt-3 grid gap-4 sm:grid-cols-2">
        <label className="text-sm">First name<input name="firstName" maxLength={MAX.name} defaultValue={member.contact?.firstName ?? ''} className={input} autoComplete="given-name" /></label>
        <label className="text-sm">Last name<input name="lastName" maxLength={MAX.name} defaultValue={member.contact?.lastName ?? ''} className={input} autoComplete="family-name" /></label>
        <label className="text-sm">Display name<input name="nickname" maxLength={MAX.nickname} defaultValue={member.profile?.nickname ?? ''} className={input} autoComplete="nickname" /></label>
        <label className="text-sm">Profile address (slug)<input name="slug" maxLength={MAX.slug} defaultValue={member.profile?.slug ?? ''} className={input} /></label>
        <label className="text-sm sm:col-span-2">Photo URL<input name="photo" type="url" maxLength={MAX.url} defaultValue={member.profile?.photo?.url ?? ''} className={input} /></label>
      </div>
      {error && <p role="alert" className="mt-3 text-sm text-rose-800">{readableError(error, LABELS, BY_CODE)}</p>}
      <div className="mt-4 flex items-center gap-3">
        <button type="submit" disabled={update.isPending || slug.isPending} className={button}>Save profile</button>
        {saved && <span role="status" className="text-sm text-emerald-800">Saved</span>}
      </div>
    </form>
  );
}

function Community({ member }: { member: members.Member }) {
  const membership = useCommunityMembership();
  const isPublic = member.privacyStatus === 'PUBLIC';
  return (
    <div className="mt-6 rounded-lg border border-stone-200 bg-white p-5">
      <h2 className="text-lg font-semibold">Community</h2>
      <p className="mt-1 text-sm text-stone-700" data-testid="privacy">{isPublic ? 'Your profile is public: other members can see it.' : 'Your profile is private.'}</p>
      {membership.error && <p role="alert" className="mt-2 text-sm text-rose-800">{membership.error.message}</p>}
      <button type="button" disabled={membership.isPending} onClick={() => membership.mutate(!isPublic)} className={`mt-3 ${button}`}>
        {isPublic ? 'Leave the community' : 'Join the community'}
      </button>
    </div>
  );
}

function Addresses({ member }: { member: members.Member }) {
  const update = useUpdateMyMember();
  const addresses = member.contact?.addresses ?? [];
  const keep = (list: members.MemberAddress[]) => list.map(({ _id, ...rest }) => ({ id: _id, ...rest }));
  const save = (next: members.MemberInput['contact'], onSuccess?: () => void) => update.mutate({ _id: member._id, member: { contact: next } }, { onSuccess });
  const add = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? '').trim() || null;
    // Emptied only once saved: a refused address stays in the form to be corrected.
    save({ addresses: [...keep(addresses), { addressLine: text('addressLine'), city: text('city'), postalCode: text('postalCode'), country: text('country')?.toUpperCase() ?? null }] }, () => form.reset());
  };
  return (
    <div className="mt-6 rounded-lg border border-stone-200 bg-white p-5">
      <h2 className="text-lg font-semibold">Addresses</h2>
      {addresses.length === 0 && <p className="mt-1 text-sm text-stone-700">No saved addresses yet.</p>}
      <ul className="mt-2 space-y-2 text-sm" data-testid="addresses">
        {addresses.map((a) => (
          <li key={a._id} className="flex items-center gap-3">
            <span>{[a.addressLine, a.city, a.postalCode, a.country].filter(Boolean).join(', ')}</span>
            <button type="button" onClick={() => save({ addresses: keep(addresses.filter((x) => x._id !== a._id)) })} className="ml-auto underline">Remove</button>
          </li>
        ))}
      </ul>
      <form onSubmit={add} className="mt-4 grid gap-3 sm:grid-cols-2" aria-label="Add an address">
        <label className="text-sm sm:col-span-2">Street and number<input name="addressLine" required maxLength={MAX.addressLine} className={input} autoComplete="address-line1" /></label>
        <label className="text-sm">City<input name="city" required maxLength={MAX.addressField} className={input} autoComplete="address-level2" /></label>
        <label className="text-sm">Postal code<input name="postalCode" maxLength={MAX.addressField} className={input} autoComplete="postal-code" /></label>
        <label className="text-sm">Country (2 letters)<input name="country" required pattern="[A-Za-z]{2}" maxLength={2} className={input} autoComplete="country" /></label>
        <div className="flex items-end"><button type="submit" disabled={update.isPending} className={button}>Add address</button></div>
      </form>
      {update.error && <p role="alert" className="mt-2 text-sm text-rose-800">{readableError(update.error, LABELS)}</p>}
    </div>
  );
}

function Orders() {
  const orders = useMyOrders();
  return (
    <div className="mt-8 rounded-lg border border-stone-200 bg-white p-5">
      <h2 className="text-lg font-semibold">Orders</h2>
      {orders.isPending && <p className="mt-1 text-sm text-stone-700">Loading…</p>}
      {orders.isError && <p role="alert" className="mt-1 text-sm text-rose-800">{orders.error.message}</p>}
      {orders.data?.length === 0 && <p className="mt-1 text-sm text-stone-700" data-testid="no-orders">No orders yet.</p>}
      <ul className="mt-2 divide-y divide-stone-200 text-sm" data-testid="orders">
        {orders.data?.map((o) => (
          <li key={o._id} className="flex flex-wrap items-center gap-3 py-2">
            <Link to={`/account/orders/${o._id}`} className="font-medium underline">Order {o.number}</Link>
            <span className="text-stone-700">{o._createdDate?.toLocaleDateString()}</span>
            <span className="text-stone-700">{paymentLabel(o)}</span>
            <span className="ml-auto">{o.priceSummary?.total?.formattedAmount}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
