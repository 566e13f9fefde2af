import type { Item } from '../content';

export function ItemGrid({ items, columns = 3 }: { items: Item[]; columns?: 2 | 3 }) {
  return (
    <ul className={`grid gap-6 sm:grid-cols-2 ${columns === 3 ? 'lg:grid-cols-3' : ''}`}>
      {items.map(({ icon: Icon, title, description }) => (
        <li
          key={title}
          className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 transition hover:shadow-md"
        >
          <span className="inline-flex size-11 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600 ring-1 ring-indigo-100">
            <Icon className="size-5" aria-hidden="true" />
          </span>
          <h3 className="mt-5 text-base font-semibold text-slate-900">{title}</h3>
          <p className="mt-2 text-sm leading-6 text-slate-600">{description}</p>
        </li>
      ))}
    </ul>
  );
}
