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
