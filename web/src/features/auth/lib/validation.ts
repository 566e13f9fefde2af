/** Spec §5 sign-in and sign-up rules, with the spec's titles and messages. */
export interface FormProblem {
  title: string;
  description: string;
  /** The fields to mark and the message each shows; the first gets focus. */
  fields: Record<string, string>;
}

export const MIN_PASSWORD_LENGTH = 8;

const missing = (values: Record<string, string>): FormProblem | null => {
  const empty = Object.keys(values).filter((name) => values[name]?.trim() === '');
  if (empty.length === 0) return null;
  return {
    title: 'Missing Information',
    description: 'Please fill in all fields',
    fields: Object.fromEntries(empty.map((name) => [name, 'Please fill in this field'])),
  };
};

export const weakPassword = (password: string): FormProblem | null =>
  password.length < MIN_PASSWORD_LENGTH
    ? {
        title: 'Weak Password',
        description: 'Password must be at least 8 characters long',
        fields: { password: 'Password must be at least 8 characters long' },
      }
    : null;

export function validateSignIn(input: { email: string; password: string }): FormProblem | null {
  return missing(input);
}

export function validateSignUp(input: {
  fullName: string;
  email: string;
  password: string;
  acceptTerms: boolean;
}): FormProblem | null {
  const { acceptTerms, ...text } = input;
  return (
    missing(text) ??
    weakPassword(input.password) ??
    (acceptTerms
      ? null
      : {
          title: 'Terms Required',
          description: 'Please accept the terms of service and privacy policy',
          fields: { acceptTerms: 'Please accept the terms of service and privacy policy' },
        })
  );
}
