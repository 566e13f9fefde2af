import { createContext, useContext, useId, type ReactNode } from 'react';

interface FieldControl {
  id: string;
  invalid: boolean;
  describedBy: string | undefined;
}

const FieldContext = createContext<FieldControl | null>(null);

/** What an `Input`, `Textarea` or `Select` inside a `Field` takes from it: id and aria wiring. */
export function useFieldControl(): FieldControl | null {
  return useContext(FieldContext);
}

export const labelClass = 'block text-sm font-medium text-slate-900';

interface FieldProps {
  label: ReactNode;
  /** Marks the label with a red asterisk; the control still needs its own `required`. */
  required?: boolean;
  hint?: ReactNode;
  /** Shown under the control in place of the hint; the control gets `aria-invalid`. */
  error?: string | null;
  /** Shown right of the label, e.g. a 'Forgot password?' link. */
  aside?: ReactNode;
  /** The control's id, when something outside the field points at it. */
  id?: string;
  className?: string;
  /** One `Input`, `Textarea` or `Select`; it picks up the id and aria attributes itself. */
  children: ReactNode;
}

/**
 * A label, one control, and the hint or error under it, tied to the control with
 * `aria-describedby` — the one place a form's field errors are shown.
 */
export function Field({
  label,
  required,
  hint,
  error,
  aside,
  id,
  className,
  children,
}: FieldProps) {
  const generated = useId();
  const controlId = id ?? generated;
  const errorId = error ? `${controlId}-error` : undefined;
  const hintId = hint && !error ? `${controlId}-hint` : undefined;
  const control: FieldControl = {
    id: controlId,
    invalid: Boolean(error),
    describedBy: [errorId, hintId].filter(Boolean).join(' ') || undefined,
  };
  return (
    <div className={className}>
      <div className="flex items-center justify-between gap-4">
        <label htmlFor={controlId} className={labelClass}>
          {label}
          {required && <span className="text-rose-600"> *</span>}
        </label>
        {aside}
      </div>
      <FieldContext.Provider value={control}>{children}</FieldContext.Provider>
      {error && (
        <p id={errorId} role="alert" className="mt-2 text-sm text-rose-700">
          {error}
        </p>
      )}
      {hintId && (
        <p id={hintId} className="mt-2 text-sm text-slate-500">
          {hint}
        </p>
      )}
    </div>
  );
}
