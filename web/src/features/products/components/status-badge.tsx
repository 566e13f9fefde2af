import type { ProductStatus } from '../types';

export function StatusBadge({ status }: { status: ProductStatus }) {
  return status === 'published' ? (
    <span className="inline-flex items-center gap-1.5 rounded-full bg-emerald-50 px-2.5 py-1 text-xs font-semibold text-emerald-700 ring-1 ring-emerald-600/20">
      <span className="size-1.5 rounded-full bg-emerald-500" aria-hidden="true" />
      Live
    </span>
  ) : (
    <span className="inline-flex items-center gap-1.5 rounded-full bg-slate-100 px-2.5 py-1 text-xs font-semibold text-slate-700 ring-1 ring-slate-500/20">
      <span className="size-1.5 rounded-full bg-slate-400" aria-hidden="true" />
      Draft
    </span>
  );
}
