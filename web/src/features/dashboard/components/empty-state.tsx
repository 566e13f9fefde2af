import type { ReactNode } from 'react';

/** What a seller sees where there is nothing yet: guidance, never sample figures. */
export function EmptyState({
  title,
  children,
  action,
}: {
  title: string;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 px-6 py-8 text-center">
      <p className="font-medium text-slate-900">{title}</p>
      <p className="mt-1 text-sm text-slate-600">{children}</p>
      {action && <div className="mt-4">{action}</div>}
    </div>
  );
}

export function LoadError({ what }: { what: string }) {
  return (
    <p role="alert" className="rounded-lg bg-rose-50 px-4 py-3 text-sm text-rose-700">
      Could not load {what}. Please refresh the page to try again.
    </p>
  );
}

export function Loading({ label }: { label: string }) {
  return (
    <div
      className="h-24 animate-pulse rounded-lg bg-slate-100"
      aria-busy="true"
      aria-label={label}
    />
  );
}

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
      <div className="mb-4 flex items-center justify-between gap-4">
        <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
        {action}
      </div>
      {children}
    </section>
  );
}
