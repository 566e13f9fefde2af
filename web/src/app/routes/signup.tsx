import { Seo } from '@/components/seo/seo';
import { SignUpScreen } from '@/features/auth/components/sign-up-screen';

export default function SignupRoute({ brand = false }: { brand?: boolean }) {
  return (
    <>
      <Seo
        title="Sign up — Lockdrop"
        description="Create a free Lockdrop account and start selling your files."
      />
      <SignUpScreen brand={brand} />
    </>
  );
}
