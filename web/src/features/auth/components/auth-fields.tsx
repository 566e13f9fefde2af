import type { ComponentProps } from 'react';
import { TextField } from '@/components/ui/text-field';

type Extras = Pick<
  ComponentProps<typeof TextField>,
  'error' | 'hint' | 'placeholder' | 'className'
>;

/** The e-mail of an account: sign-in, sign-up and the reset-link request. */
export function EmailField(props: Extras) {
  return <TextField label="E-mail" name="email" type="email" autoComplete="email" {...props} />;
}

/** An authenticator app's code: the sign-in challenge and turning two-factor on or off. */
export function AuthCodeField(props: Extras) {
  return (
    <TextField
      label="Authentication code"
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={7}
      {...props}
    />
  );
}
