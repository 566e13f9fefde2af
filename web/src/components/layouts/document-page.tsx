import type { ReactNode } from 'react';
import { PageHeader } from '@/components/ui/section';

interface DocumentPageProps {
  eyebrow: string;
  title: string;
  description: ReactNode;
  children: ReactNode;
}

/** Legal and story pages: one h1 header, then readable long-form text. */
export function DocumentPage({ eyebrow, title, description, children }: DocumentPageProps) {
  return (
    <>
      <PageHeader eyebrow={eyebrow} title={title} description={description} />
      <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6 sm:py-20 lg:px-8">
        <article className="prose-page">{children}</article>
      </div>
    </>
  );
}
