import type { ReactNode } from 'react';
import { LogoMark } from '@/components/ui/logo';

interface AuthCardProps {
  title: string;
  description?: ReactNode;
  eyebrow?: string;
  children: ReactNode;
  footer?: ReactNode;
}

/** The frame of every account screen: one h1, a white card, and a line below it. */
export function AuthCard({ title, description, eyebrow, children, footer }: AuthCardProps) {
  return (
    <div className="bg-gradient-to-b from-indigo-50/70 to-white px-4 py-12 sm:py-20">
      <div className="mx-auto w-full max-w-md">
        <div className="text-center">
          <LogoMark className="mx-auto size-11" />
          {eyebrow && (
            <p className="mt-6 text-sm font-semibold tracking-wide text-indigo-600 uppercase">
              {eyebrow}
            </p>
          )}
          <h1
            className={`${eyebrow ? 'mt-2' : 'mt-6'} text-3xl font-bold tracking-tight text-balance text-slate-900`}
          >
            {title}
          </h1>
          {description && <p className="mt-3 text-pretty text-slate-600">{description}</p>}
        </div>
        <div className="mt-8 rounded-3xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
          {children}
        </div>
        {footer && <p className="mt-6 text-center text-sm text-slate-600">{footer}</p>}
      </div>
    </div>
  );
}

export const textLinkClass =
  'rounded font-semibold text-indigo-700 underline-offset-2 hover:text-indigo-600 hover:underline';
