import { Menu, X } from 'lucide-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { ButtonLink } from '@/components/ui/button';
import { Logo } from '@/components/ui/logo';
import { paths } from '@/config/paths';
import { useSession } from '@/features/auth';

const marketingLinks = [
  { label: 'Home', to: paths.home.getHref() },
  { label: 'Features', to: paths.features.getHref() },
  { label: 'Pricing', to: paths.pricing.getHref() },
  { label: 'Founder Story', to: paths.founder.getHref() },
  { label: 'Contact', to: paths.contact.getHref() },
];

// Only signed-in visitors need the menu's code; the landing page stays light for everyone else.
const AccountMenu = lazy(() => import('./account-menu'));

function AccountMenuSlot() {
  const { isSignedIn } = useSession();
  if (!isSignedIn) return null;
  return (
    <Suspense fallback={<span className="size-9 rounded-full bg-slate-100" aria-hidden="true" />}>
      <AccountMenu />
    </Suspense>
  );
}

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium transition-colors ${isActive ? 'text-indigo-700' : 'text-slate-600 hover:text-slate-900'}`;

function AccountLinks({
  onNavigate,
  stacked = false,
}: {
  onNavigate?: () => void;
  stacked?: boolean;
}) {
  const { isSignedIn } = useSession();
  const width = stacked ? 'w-full' : '';
  if (isSignedIn) {
    return (
      <>
        <ButtonLink
          to={paths.purchases.getHref()}
          variant="ghost"
          className={width}
          onClick={onNavigate}
        >
          My Purchases
        </ButtonLink>
        <ButtonLink to={paths.dashboard.root.getHref()} className={width} onClick={onNavigate}>
          Dashboard
        </ButtonLink>
      </>
    );
  }
  return (
    <>
      <ButtonLink
        to={paths.auth.login.getHref()}
        variant={stacked ? 'secondary' : 'ghost'}
        className={width}
        onClick={onNavigate}
      >
        Log in
      </ButtonLink>
      <ButtonLink to={paths.auth.signup.getHref()} className={width} onClick={onNavigate}>
        Sign up
      </ButtonLink>
    </>
  );
}

export function Header() {
  const [menuOpen, setMenuOpen] = useState(false);
  const { pathname } = useLocation();
  const close = () => setMenuOpen(false);

  useEffect(close, [pathname]);

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/90 backdrop-blur supports-[backdrop-filter]:bg-white/75">
      <nav
        aria-label="Main"
        className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8"
      >
        <Logo onNavigate={close} />
        <ul className="hidden items-center gap-1 md:flex">
          {marketingLinks.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} end className={navLinkClass}>
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="flex items-center gap-2">
          <div className="hidden items-center gap-2 md:flex">
            <AccountLinks />
          </div>
          <AccountMenuSlot />
          <button
            type="button"
            className="inline-flex items-center justify-center rounded-md p-2 text-slate-700 hover:bg-slate-100 md:hidden"
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            onClick={() => setMenuOpen((open) => !open)}
          >
            <span className="sr-only">{menuOpen ? 'Close menu' : 'Open menu'}</span>
            {menuOpen ? (
              <X className="size-6" aria-hidden="true" />
            ) : (
              <Menu className="size-6" aria-hidden="true" />
            )}
          </button>
        </div>
      </nav>
      {menuOpen && (
        <div
          id="mobile-menu"
          className="border-t border-slate-200 bg-white px-4 pt-2 pb-6 shadow-lg md:hidden"
        >
          <ul className="flex flex-col">
            {marketingLinks.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  end
                  onClick={close}
                  className={({ isActive }) =>
                    `block rounded-md px-3 py-3 text-base font-medium ${isActive ? 'bg-indigo-50 text-indigo-700' : 'text-slate-700 hover:bg-slate-50'}`
                  }
                >
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
          <div className="mt-4 flex flex-col gap-2">
            <AccountLinks onNavigate={close} stacked />
          </div>
        </div>
      )}
    </header>
  );
}
