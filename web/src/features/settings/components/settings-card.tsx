import type { ReactNode } from 'react';

interface SettingsCardProps {
  id: string;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  tone?: 'default' | 'danger';
}

/** One section of /settings: an h2 that names the region, and its content. */
export function SettingsCard({
  id,
  title,
  description,
  children,
  tone = 'default',
}: SettingsCardProps) {
  return (
    <section
      aria-labelledby={id}
      className={`rounded-2xl bg-white p-6 shadow-sm ring-1 sm:p-8 ${tone === 'danger' ? 'ring-rose-200' : 'ring-slate-200'}`}
    >
      <h2
        id={id}
        className={`text-lg font-semibold ${tone === 'danger' ? 'text-rose-700' : 'text-slate-900'}`}
      >
        {title}
      </h2>
      {description && <p className="mt-1 text-sm text-slate-600">{description}</p>}
      <div className="mt-6">{children}</div>
    </section>
  );
}
