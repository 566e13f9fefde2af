import type { MfaChallenge, MfaChallengeRequest, SignInRequest } from '@lockdrop/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { sessionQueryKey, toAccount, type Account } from './get-session';

export type SignInInput = SignInRequest;

/** Sign-in answers a session, or asks for the second factor first. */
export type SignInResult =
  { kind: 'signed-in'; account: Account } | { kind: 'mfa'; challengeToken: string };

const isMfaRequired = (body: unknown): body is MfaChallenge =>
  (body as Partial<MfaChallenge> | null)?.mfaRequired === true;

export async function signIn(input: SignInInput): Promise<SignInResult> {
  const body = await api<unknown>('/api/auth/sign-in', { method: 'POST', body: input });
  if (isMfaRequired(body)) return { kind: 'mfa', challengeToken: body.challengeToken };
  return { kind: 'signed-in', account: toAccount(body) };
}

/** The MFA step's answer: the account, and how many recovery codes are left when one was used. */
export interface MfaChallengeResult {
  account: Account;
  recoveryCodesRemaining?: number;
}

export async function completeMfaChallenge(
  input: MfaChallengeRequest,
): Promise<MfaChallengeResult> {
  const body = await api<unknown>('/api/auth/mfa/challenge', { method: 'POST', body: input });
  const remaining = (body as { recoveryCodesRemaining?: unknown }).recoveryCodesRemaining;
  return {
    account: toAccount(body),
    ...(typeof remaining === 'number' ? { recoveryCodesRemaining: remaining } : {}),
  };
}

/** Puts a fresh session in the cache, so every screen sees the new account at once. */
export function useStoreAccount() {
  const queryClient = useQueryClient();
  return (account: Account) => queryClient.setQueryData(sessionQueryKey, account);
}

export function useSignIn() {
  const store = useStoreAccount();
  return useMutation({
    mutationFn: signIn,
    onSuccess: (result) => {
      if (result.kind === 'signed-in') store(result.account);
    },
  });
}

export function useMfaChallenge() {
  const store = useStoreAccount();
  return useMutation({
    mutationFn: completeMfaChallenge,
    onSuccess: (result) => store(result.account),
  });
}
