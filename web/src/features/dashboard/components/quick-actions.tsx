import { BarChart3, CreditCard, PlusCircle } from 'lucide-react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';

const actions = [
  {
    title: 'Create product',
    text: 'Upload a file and get a payment link',
    to: paths.products.create.getHref(),
    icon: PlusCircle,
  },
  {
    title: 'Payment history',
    text: 'Every sale, its fees and refunds',
    to: paths.dashboard.payments.getHref(),
    icon: CreditCard,
  },
  {
    title: 'Analytics',
    text: 'Views, sales and downloads per product',
    to: paths.dashboard.analytics.getHref(),
    icon: BarChart3,
  },
];

export function QuickActions() {
  return (
    <section aria-label="Quick actions" className="grid gap-4 sm:grid-cols-3">
      {actions.map(({ title, text, to, icon: Icon }) => (
        <Link
          key={to}
          to={to}
          className="flex items-start gap-3 rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200 hover:ring-indigo-300 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          <Icon className="size-6 shrink-0 text-indigo-600" aria-hidden="true" />
          <span>
            <span className="block font-semibold text-slate-900">{title}</span>
            <span className="block text-sm text-slate-600">{text}</span>
          </span>
        </Link>
      ))}
    </section>
  );
}
