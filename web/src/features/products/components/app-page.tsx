import type { ReactNode } from 'react';
import { Seo } from '@/components/seo/seo';

interface AppPageProps {
  title: string;
  description?: ReactNode;
  /** Document title and meta description. */
  meta: { title: string; description: string };
  actions?: ReactNode;
  width?: 'narrow' | 'wide';
  children: ReactNode;
}

/** The frame of a signed-in screen: heading, optional actions, content. */
export function AppPage({
  title,
  description,
  meta,
  actions,
  width = 'narrow',
  children,
}: AppPageProps) {
  return (
    <div className="bg-slate-50">
      <Seo {...meta} />
      <div
        className={`mx-auto px-4 py-10 sm:px-6 sm:py-14 lg:px-8 ${width === 'wide' ? 'max-w-7xl' : 'max-w-3xl'}`}
      >
        <div className="mb-8 flex flex-wrap items-end justify-between gap-4">
          <div>
            <h1 className="text-3xl font-bold tracking-tight text-slate-900">{title}</h1>
            {description && <p className="mt-2 text-slate-600">{description}</p>}
          </div>
          {actions}
        </div>
        {children}
      </div>
    </div>
  );
}
