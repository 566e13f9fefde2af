import type { InputHTMLAttributes, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { useFieldControl } from './field';

const control =
  'mt-2 block w-full rounded-lg border-0 bg-white px-3.5 py-2.5 text-slate-900 shadow-sm ring-1 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-indigo-600 focus:outline-none disabled:bg-slate-50 disabled:text-slate-500';

/** The look of every text input, textarea and select; `invalid` rings it in red. */
export function controlClass(invalid = false, extra = ''): string {
  return `${control} ${invalid ? 'ring-rose-400' : 'ring-slate-300'} ${extra}`.trim();
}

interface Validity {
  /** Without a `Field` around it: rings the control in red and sets `aria-invalid`. */
  invalid?: boolean;
}

/** Inside a `Field`: its id, `aria-invalid` and `aria-describedby`; explicit props win. */
function useControlProps(invalid: boolean | undefined, className = '') {
  const field = useFieldControl();
  const isInvalid = invalid ?? field?.invalid ?? false;
  return {
    id: field?.id,
    'aria-invalid': isInvalid || undefined,
    'aria-describedby': field?.describedBy,
    className: controlClass(isInvalid, className),
  };
}

export function Input({
  invalid,
  className,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & Validity) {
  return <input {...useControlProps(invalid, className)} {...props} />;
}

export function Textarea({
  invalid,
  className,
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & Validity) {
  return <textarea {...useControlProps(invalid, className)} {...props} />;
}

export function Select({
  invalid,
  className,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & Validity) {
  return <select {...useControlProps(invalid, className)} {...props} />;
}
