import {
  BarChart3,
  CreditCard,
  LayoutDashboard,
  LogOut,
  Menu,
  Package,
  PackageCheck,
  Settings,
  TicketPercent,
  X,
} from 'lucide-react';
import { Suspense, useEffect, useState, type ReactNode } from 'react';
import type { StoreRight } from '@lockdrop/contracts';
import { Link, NavLink, Outlet, useLocation } from 'react-router-dom';
import { paths } from '@/config/paths';
import { SignOutButton, useActing, useSession } from '@/features/auth';
import { planById } from '@lockdrop/plans';

/** `right`: what a member acting for the store needs to see the entry (the server enforces it). */
const menu: {
  label: string;
  to: string;
  icon: typeof Package;
  end: boolean;
  right?: StoreRight;
}[] = [
  { label: 'Dashboard', to: paths.dashboard.root.getHref(), icon: LayoutDashboard, end: true },
  {
    label: 'Products',
    to: paths.products.mine.getHref(),
    icon: Package,
    end: false,
    right: 'products:read',
  },
  {
    label: 'Deliveries',
    to: paths.dashboard.deliveries.getHref(),
    icon: PackageCheck,
    end: false,
    right: 'sales:read',
  },
  {
    label: 'Payments',
    to: paths.dashboard.payments.getHref(),
    icon: CreditCard,
    end: false,
    right: 'sales:read',
  },
  {
    label: 'Analytics',
    to: paths.dashboard.analytics.getHref(),
    icon: BarChart3,
    end: false,
    right: 'analytics:read',
  },
  {
    label: 'Discounts',
    to: paths.dashboard.discounts.getHref(),
    icon: TicketPercent,
    end: false,
    right: 'discounts:read',
  },
  { label: 'Settings', to: paths.settings.getHref(), icon: Settings, end: false },
];

/**
 * What each dashboard screen needs from a member acting for the store: its menu entry's right
 * (nested pages too), and creating a product. A screen typed in or bookmarked answers with the
 * no-access screen rather than a page of refused requests.
 */
const screenRights: { prefix: string; right: StoreRight }[] = [
  ...menu.flatMap(({ to, right }) => (right ? [{ prefix: to, right }] : [])),
  { prefix: paths.products.create.getHref(), right: 'products:write' },
];

function rightForScreen(pathname: string): StoreRight | undefined {
  return screenRights.find(({ prefix }) => pathname === prefix || pathname.startsWith(`${prefix}/`))
    ?.right;
}

function NoAccess({ storeName, role }: { storeName: string; role: string }) {
  return (
    <section
      aria-labelledby="no-access-title"
      data-testid="no-access"
      className="rounded-xl bg-white p-8 shadow-sm ring-1 ring-slate-200"
    >
      <h1 id="no-access-title" className="text-2xl font-bold tracking-tight text-slate-900">
        You don&apos;t have access to this page
      </h1>
      <p className="mt-2 text-sm text-slate-600">
        Your role in {storeName} ({role}) does not include it. Ask the store&apos;s owner or an
        admin if you need it.
      </p>
      <Link
        to={paths.dashboard.root.getHref()}
        className="mt-4 inline-block text-sm font-medium text-indigo-600 hover:underline"
      >
        Back to the dashboard
      </Link>
    </section>
  );
}

function SellerIdentity() {
  const { user, profile } = useSession();
  const acting = useActing();
  if (!user) return null;
  if (acting)
    return (
      <div className="border-t border-slate-200 px-3 pt-4" data-testid="seller-identity">
        <p className="truncate text-sm font-semibold text-slate-900">{acting.storeName}</p>
        <p className="truncate text-xs text-slate-500">
          {user.email} · {acting.role}
        </p>
      </div>
    );
  return (
    <div className="border-t border-slate-200 px-3 pt-4" data-testid="seller-identity">
      <p className="truncate text-sm font-semibold text-slate-900">
        {profile?.fullName || 'Creator'}
      </p>
      <p className="truncate text-xs text-slate-500">{user.email}</p>
      <p className="mt-1 text-xs font-medium text-indigo-700">{planById(user.plan).name} plan</p>
    </div>
  );
}

/** The seller side menu (spec §2): current route highlighted, a toggle below 768 px, a real Logout. */
export function SellerShell({ storeSwitcher }: { storeSwitcher?: ReactNode }) {
  const [open, setOpen] = useState(false);
  const acting = useActing();
  const visible = menu.filter(({ right }) => !acting || !right || acting.rights.includes(right));
  const { pathname } = useLocation();
  useEffect(() => setOpen(false), [pathname]);
  const needed = rightForScreen(pathname);
  const refused = acting && needed && !acting.rights.includes(needed) ? acting : null;

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-6 px-4 py-6 sm:px-6 md:flex-row lg:px-8">
      <button
        type="button"
        className="inline-flex items-center gap-2 self-start rounded-md px-3 py-2 text-sm font-medium text-slate-700 ring-1 ring-slate-300 md:hidden"
        aria-expanded={open}
        aria-controls="seller-menu"
        onClick={() => setOpen((value) => !value)}
      >
        {open ? (
          <X className="size-4" aria-hidden="true" />
        ) : (
          <Menu className="size-4" aria-hidden="true" />
        )}
        {open ? 'Close seller menu' : 'Seller menu'}
      </button>
      <aside
        id="seller-menu"
        className={`${open ? 'flex' : 'hidden'} w-full shrink-0 flex-col gap-4 rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-200 md:flex md:w-56 md:self-start`}
      >
        <nav aria-label="Seller">
          <ul className="flex flex-col gap-1">
            {visible.map(({ label, to, icon: Icon, end }) => (
              <li key={to}>
                <NavLink
                  to={to}
                  end={end}
                  className={({ isActive }) =>
                    `flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium ${isActive ? 'bg-indigo-50 text-indigo-700' : 'text-slate-700 hover:bg-slate-50'}`
                  }
                >
                  <Icon className="size-4" aria-hidden="true" />
                  {label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        {storeSwitcher}
        <SellerIdentity />
        <SignOutButton className="flex items-center gap-3 rounded-md px-3 py-2 text-left text-sm font-medium text-slate-700 hover:bg-slate-50">
          <LogOut className="size-4" aria-hidden="true" />
          Logout
        </SignOutButton>
      </aside>
      <div className="min-w-0 flex-1">
        {refused ? (
          <NoAccess storeName={refused.storeName} role={refused.role} />
        ) : (
          <Suspense fallback={<div className="min-h-[60vh]" aria-busy="true" />}>
            <Outlet />
          </Suspense>
        )}
      </div>
    </div>
  );
}
