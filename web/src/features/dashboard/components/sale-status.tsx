import type { Sale } from '../api/get-sales';

const styles: Record<Sale['status'], { label: string; className: string }> = {
  paid: { label: 'Paid', className: 'bg-emerald-50 text-emerald-700' },
  refunding: { label: 'Refunding', className: 'bg-amber-50 text-amber-700' },
  refunded: { label: 'Refunded', className: 'bg-slate-100 text-slate-600' },
};

export function SaleStatus({ status }: { status: Sale['status'] }) {
  const { label, className } = styles[status];
  return (
    <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium ${className}`}>
      {label}
    </span>
  );
}
