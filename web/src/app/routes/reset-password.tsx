import { Seo } from '@/components/seo/seo';
import { ResetPasswordScreen } from '@/features/auth/components/reset-password-screen';

export default function ResetPasswordRoute() {
  return (
    <>
      <Seo
        title="Choose a new password — Lockdrop"
        description="Choose a new password for your Lockdrop account."
      />
      <ResetPasswordScreen />
    </>
  );
}
