import type { ComponentProps } from 'react';
import { useFieldControl } from './field';

const control =
  'mt-2 block w-full rounded-lg border-0 bg-white px-3.5 py-2.5 text-slate-900 shadow-sm ring-1 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-indigo-600 focus:outline-none disabled:bg-slate-50 disabled:text-slate-500';

/** The look of every text control; inside a `Field`, its id and aria wiring (explicit props win). */
function useControlProps(className = '') {
  const field = useFieldControl();
  const invalid = field?.invalid ?? false;
  return {
    id: field?.id,
    'aria-invalid': invalid || undefined,
    'aria-describedby': field?.describedBy,
    className: `${control} ${invalid ? 'ring-rose-400' : 'ring-slate-300'} ${className}`.trim(),
  };
}

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return <input {...useControlProps(className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea {...useControlProps(className)} {...props} />;
}

export function Select({ className, ...props }: ComponentProps<'select'>) {
  return <select {...useControlProps(className)} {...props} />;
}
