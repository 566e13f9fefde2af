import type { ComponentProps, ReactNode } from 'react';
import { Field } from './field';
import { Input } from './input';

interface TextFieldProps extends Omit<ComponentProps<typeof Input>, 'id'> {
  label: ReactNode;
  name: string;
  hint?: ReactNode;
  error?: string | null;
  aside?: ReactNode;
}

/** The common case of a `Field`: a label over one text `Input`; `className` styles the field. */
export function TextField({ label, hint, error, aside, className, ...input }: TextFieldProps) {
  return (
    <Field label={label} hint={hint} error={error} aside={aside} className={className}>
      <Input {...input} />
    </Field>
  );
}
