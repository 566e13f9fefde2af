import type { SignUpRequest } from '@lockdrop/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { toAccount, type Account } from './get-session';
import { useStoreAccount } from './sign-in';

export type SignUpInput = SignUpRequest;

/** Creates the account and signs it in; the e-mail stays unverified until the link is opened. */
export async function signUp(input: SignUpInput): Promise<Account> {
  return toAccount(await api<unknown>('/api/auth/sign-up', { method: 'POST', body: input }));
}

export function useSignUp() {
  const store = useStoreAccount();
  return useMutation({ mutationFn: signUp, onSuccess: store });
}
