import { describe, expect, it } from 'vitest';
import { validateSignIn, validateSignUp } from './validation';

const good = {
  fullName: 'Ada Obi',
  email: 'ada@example.com',
  password: 'longenough',
  acceptTerms: true,
};

describe('sign-in and sign-up validation (spec §5)', () => {
  it('asks for every field', () => {
    expect(validateSignIn({ email: '', password: 'x' })).toMatchObject({
      title: 'Missing Information',
      description: 'Please fill in all fields',
      fields: { email: expect.any(String) },
    });
    expect(validateSignUp({ ...good, fullName: '  ' })?.title).toBe('Missing Information');
  });

  it('wants a password of at least 8 characters, then accepted terms', () => {
    expect(validateSignUp({ ...good, password: 'short77' })).toMatchObject({
      title: 'Weak Password',
      description: 'Password must be at least 8 characters long',
    });
    expect(validateSignUp({ ...good, acceptTerms: false })).toMatchObject({
      title: 'Terms Required',
      description: 'Please accept the terms of service and privacy policy',
    });
    expect(validateSignUp(good)).toBeNull();
  });
});
