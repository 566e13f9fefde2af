import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useSession, useSignOut } from '@/features/auth';
import { Avatar } from '@/features/auth';

const itemBase =
  'block w-full rounded-md px-3 py-2 text-left text-sm hover:bg-slate-100 focus:bg-slate-100 focus:outline-none';
const itemClass = `${itemBase} text-slate-700`;

const items = [
  { label: 'Dashboard', to: paths.dashboard.root.getHref() },
  { label: 'My Purchases', to: paths.purchases.getHref() },
  { label: 'Settings', to: paths.settings.getHref() },
];

/** The signed-in avatar menu 'My Account' (spec §2). Loaded only once someone is signed in. */
export default function AccountMenu() {
  const { user, profile } = useSession();
  const signOut = useSignOut();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();

  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    rootRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const entries = [
      ...(rootRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []),
    ];
    const index = entries.indexOf(document.activeElement as HTMLElement);
    const move = { ArrowDown: 1, ArrowUp: -1 }[event.key];
    if (event.key === 'Escape') {
      setOpen(false);
      buttonRef.current?.focus();
    } else if (move) {
      event.preventDefault();
      entries[(index + move + entries.length) % entries.length]?.focus();
    } else if (event.key === 'Tab') setOpen(false);
  }

  if (!user) return null;
  const name = profile?.fullName || user.email;
  return (
    <div ref={rootRef} className="relative" onKeyDown={onKeyDown}>
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((value) => !value)}
        className="flex rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        <span className="sr-only">Open account menu</span>
        <Avatar avatarUrl={profile?.avatarUrl} email={user.email} fullName={profile?.fullName} />
      </button>
      {open && (
        <div
          id={menuId}
          role="menu"
          aria-labelledby={`${menuId}-title`}
          className="absolute right-0 z-50 mt-2 w-64 rounded-xl bg-white p-2 shadow-lg ring-1 ring-slate-200"
        >
          <div className="border-b border-slate-100 px-3 pt-1 pb-3">
            <p
              id={`${menuId}-title`}
              className="text-xs font-semibold tracking-wide text-slate-500 uppercase"
            >
              My Account
            </p>
            <p
              className="mt-1 truncate text-sm font-medium text-slate-900"
              data-testid="account-name"
            >
              {name}
            </p>
            {profile?.fullName && <p className="truncate text-xs text-slate-500">{user.email}</p>}
          </div>
          <div className="pt-2">
            {items.map((item) => (
              <Link key={item.to} role="menuitem" tabIndex={-1} to={item.to} className={itemClass}>
                {item.label}
              </Link>
            ))}
            <button
              type="button"
              role="menuitem"
              tabIndex={-1}
              className={`${itemBase} text-rose-700`}
              disabled={signOut.isPending}
              onClick={() => signOut.mutate()}
            >
              Logout
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
