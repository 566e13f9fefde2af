import { Seo } from '@/components/seo/seo';
import { ForgotPasswordScreen } from '@/features/auth/components/forgot-password-screen';

export default function ForgotPasswordRoute() {
  return (
    <>
      <Seo
        title="Reset your password — Lockdrop"
        description="Get a link to choose a new Lockdrop password."
      />
      <ForgotPasswordScreen />
    </>
  );
}
