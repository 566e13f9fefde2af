import { MailWarning } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useResendVerification } from '../api/resend-verification';

/** Purchases belong to a verified e-mail; until then the list stays closed (403 email_not_verified). */
export function EmailNotVerified() {
  const resend = useResendVerification();
  return (
    <div role="alert" className="rounded-2xl bg-amber-50 p-6 ring-1 ring-amber-200 sm:p-8">
      <div className="flex items-center gap-3">
        <MailWarning className="size-6 text-amber-600" aria-hidden="true" />
        <h2 className="text-lg font-semibold text-amber-900">
          Verify your e-mail to see your purchases
        </h2>
      </div>
      <p className="mt-3 text-sm text-amber-900">
        Purchases are matched to the e-mail address they were paid with. To keep them safe we show
        them only once you have confirmed that this address is yours.
      </p>
      <Button
        className="mt-5"
        disabled={resend.isPending || resend.isSuccess}
        onClick={() => resend.mutate()}
      >
        {resend.isSuccess ? 'Verification e-mail sent' : 'Resend verification e-mail'}
      </Button>
    </div>
  );
}
