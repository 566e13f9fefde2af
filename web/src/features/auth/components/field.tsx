import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

const inputClass =
  'mt-2 block w-full rounded-lg border-0 bg-white px-3.5 py-2.5 text-slate-900 shadow-sm ring-1 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-indigo-600 focus:outline-none disabled:bg-slate-50 disabled:text-slate-500';

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  name: string;
  error?: string;
  hint?: ReactNode;
  /** Shown right of the label, e.g. a 'Forgot password?' link. */
  aside?: ReactNode;
}

/** A labelled input whose hint and error are tied to it with aria-describedby. */
export function Field({ label, name, error, hint, aside, className = '', ...input }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={className}>
      <div className="flex items-center justify-between gap-4">
        <label htmlFor={id} className="block text-sm font-medium text-slate-900">
          {label}
        </label>
        {aside}
      </div>
      <input
        id={id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={[errorId, hintId].filter(Boolean).join(' ') || undefined}
        className={`${inputClass} ${error ? 'ring-rose-400' : 'ring-slate-300'}`}
        {...input}
      />
      {error && (
        <p id={errorId} className="mt-2 text-sm text-rose-700">
          {error}
        </p>
      )}
      {hint && !error && (
        <p id={hintId} className="mt-2 text-sm text-slate-500">
          {hint}
        </p>
      )}
    </div>
  );
}

interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> {
  name: string;
  label: ReactNode;
  error?: string;
}

export function Checkbox({ name, label, error, className = '', ...input }: CheckboxProps) {
  const id = useId();
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={className}>
      <div className="flex items-start gap-3">
        <input
          id={id}
          name={name}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={errorId}
          className="mt-0.5 size-4 flex-none rounded border-slate-300 accent-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
          {...input}
        />
        <label htmlFor={id} className="text-sm text-slate-700">
          {label}
        </label>
      </div>
      {error && (
        <p id={errorId} className="mt-2 text-sm text-rose-700">
          {error}
        </p>
      )}
    </div>
  );
}
