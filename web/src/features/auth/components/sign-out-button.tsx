import type { ButtonHTMLAttributes } from 'react';
import { useSignOut } from '../api/sign-out';

type SignOutButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onClick' | 'type'>;

/** 'Logout' that really ends the session (top avatar menu and the seller side menu). */
export function SignOutButton({ children = 'Logout', disabled, ...props }: SignOutButtonProps) {
  const signOut = useSignOut();
  return (
    <button
      type="button"
      {...props}
      disabled={disabled || signOut.isPending}
      aria-busy={signOut.isPending || undefined}
      onClick={() => signOut.mutate()}
    >
      {children}
    </button>
  );
}
