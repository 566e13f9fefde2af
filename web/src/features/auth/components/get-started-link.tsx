import type { ReactNode } from 'react';
import { ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useSession } from '../api/get-session';

type ButtonLinkProps = Omit<Parameters<typeof ButtonLink>[0], 'to'>;

/** 'Get Started for Free': to /signup, or to /dashboard when signed in (spec §2). */
export function GetStartedLink({
  children = 'Get Started for Free',
  ...props
}: ButtonLinkProps & { children?: ReactNode }) {
  const { isSignedIn } = useSession();
  return (
    <ButtonLink
      to={isSignedIn ? paths.dashboard.root.getHref() : paths.auth.signup.getHref()}
      {...props}
    >
      {children}
    </ButtonLink>
  );
}
