import type { ReactNode } from 'react';

/** A titled white card of the seller screens; `action` sits right of the title. */
export function Panel({
  title,
  action,
  children,
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200" aria-label={title}>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-4">
        <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
        {action}
      </div>
      {children}
    </section>
  );
}

/** Where a panel's figures will be, while they load. */
export function Loading({ label }: { label: string }) {
  return (
    <div
      className="h-24 animate-pulse rounded-lg bg-slate-100"
      aria-busy="true"
      aria-label={label}
    />
  );
}

/** A panel whose figures could not be loaded; `what` completes 'Could not load …'. */
export function LoadError({ what }: { what: string }) {
  return (
    <p role="alert" className="rounded-lg bg-rose-50 px-4 py-3 text-sm text-rose-700">
      Could not load {what}. Please refresh the page to try again.
    </p>
  );
}
