import type { ReactNode } from 'react';

interface SectionHeadingProps {
  eyebrow?: string;
  title: string;
  description?: ReactNode;
  id?: string;
  align?: 'center' | 'left';
}

/** The heading block every marketing section starts with (an h2 — pages own their one h1). */
export function SectionHeading({
  eyebrow,
  title,
  description,
  id,
  align = 'center',
}: SectionHeadingProps) {
  return (
    <div className={align === 'center' ? 'mx-auto max-w-2xl text-center' : 'max-w-2xl'}>
      {eyebrow && (
        <p className="text-sm font-semibold tracking-wide text-indigo-600 uppercase">{eyebrow}</p>
      )}
      <h2
        id={id}
        className="mt-2 text-3xl font-bold tracking-tight text-balance text-slate-900 sm:text-4xl"
      >
        {title}
      </h2>
      {description && <p className="mt-4 text-lg text-pretty text-slate-600">{description}</p>}
    </div>
  );
}

interface PageHeaderProps {
  eyebrow?: string;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
}

/** Top of a marketing or legal page: its single h1. */
export function PageHeader({ eyebrow, title, description, children }: PageHeaderProps) {
  return (
    <div className="border-b border-slate-200 bg-gradient-to-b from-indigo-50/70 to-white">
      <div className="mx-auto max-w-7xl px-4 py-16 text-center sm:px-6 sm:py-20 lg:px-8">
        {eyebrow && (
          <p className="text-sm font-semibold tracking-wide text-indigo-600 uppercase">{eyebrow}</p>
        )}
        <h1 className="mx-auto mt-2 max-w-3xl text-4xl font-bold tracking-tight text-balance text-slate-900 sm:text-5xl">
          {title}
        </h1>
        {description && (
          <p className="mx-auto mt-5 max-w-2xl text-lg text-pretty text-slate-600">{description}</p>
        )}
        {children}
      </div>
    </div>
  );
}
