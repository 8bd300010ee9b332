import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { useLocation, useRouter } from './context';
import { hrefOf, isExternal, resolveTo, type To } from './location';

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: To;
  replace?: boolean;
  preventScrollReset?: boolean;
}

/** A plain click the router may handle (not a new tab, a download or a modified click). */
function isPlainClick(e: MouseEvent<HTMLAnchorElement>, target: string | undefined, download: unknown): boolean {
  return !e.defaultPrevented && e.button === 0 && !(e.metaKey || e.altKey || e.ctrlKey || e.shiftKey)
    && (!target || target === '_self') && download === undefined;
}

/**
 * A real link (works without JavaScript, opens in a new tab) that navigates through the router on
 * a plain click. A link to the page already shown replaces its history entry.
 */
export function Link({ to, replace, preventScrollReset, onClick, ...rest }: LinkProps) {
  const router = useRouter();
  const location = useLocation();
  if (isExternal(to)) return <a {...rest} href={to} onClick={onClick} />;
  const href = hrefOf(resolveTo(to, location));
  return (
    <a
      {...rest}
      href={href}
      onClick={(e) => {
        onClick?.(e);
        if (!isPlainClick(e, rest.target, rest.download)) return;
        e.preventDefault();
        void router.navigate(to, { replace: replace ?? href === hrefOf(location), preventScrollReset });
      }}
    />
  );
}

export interface NavLinkProps extends Omit<LinkProps, 'className'> {
  /** A class, or one computed from whether the link's page (or a page below it) is shown. */
  className?: string | ((state: { isActive: boolean }) => string);
  /** Active only on the exact path, not below it. */
  end?: boolean;
}

/** A link that knows when its page is shown: `aria-current="page"` and an active class. */
export function NavLink({ className, end = false, ...rest }: NavLinkProps) {
  const location = useLocation();
  const target = isExternal(rest.to) ? undefined : resolveTo(rest.to, location).pathname;
  const isActive = target !== undefined && isWithin(location.pathname, target, end);
  return <Link {...rest} aria-current={isActive ? 'page' : undefined} className={typeof className === 'function' ? className({ isActive }) : className} />;
}

function isWithin(pathname: string, target: string, end: boolean): boolean {
  const here = trimSlash(pathname).toLowerCase();
  const there = trimSlash(target).toLowerCase();
  return here === there || (!end && there !== '' && here.startsWith(`${there}/`));
}

const trimSlash = (path: string) => path.replace(/\/+$/, '');
