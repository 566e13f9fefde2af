import { Seo } from '@/components/seo/seo';
import { SignInScreen } from '@/features/auth/components/sign-in-screen';

export default function LoginRoute({ brand = false }: { brand?: boolean }) {
  return (
    <>
      <Seo
        title="Log in — Lockdrop"
        description="Sign in to sell your files and manage your payouts."
      />
      <SignInScreen brand={brand} />
    </>
  );
}
