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

/** The frame of a product screen in the seller shell: heading, optional actions, content. */
export function AppPage({
  title,
  description,
  meta,
  actions,
  width = 'narrow',
  children,
}: AppPageProps) {
  return (
    <div>
      <Seo {...meta} />
      {/* Inside the seller shell, which gives the page its margins and the side menu. */}
      <div className={width === 'wide' ? '' : 'mx-auto max-w-3xl'}>
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
