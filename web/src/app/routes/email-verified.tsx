import { Seo } from '@/components/seo/seo';
import { EmailVerifiedScreen } from '@/features/auth/components/email-verified-screen';

export default function EmailVerifiedRoute() {
  return (
    <>
      <Seo
        title="E-mail verification — Lockdrop"
        description="Confirm the e-mail address of your Lockdrop account."
      />
      <EmailVerifiedScreen />
    </>
  );
}
