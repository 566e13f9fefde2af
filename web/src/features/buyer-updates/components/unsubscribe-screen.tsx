import { MailCheck, MailX } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useSetSubscribed, useSubscription } from '../api/buyer-updates';

/**
 * /unsubscribe/:token, the link in a seller's product-update e-mail: no sign-in, the token is
 * the credential. The result is read out where it appears, and the one button keeps focus.
 */
export function UnsubscribeScreen({ token }: { token: string }) {
  const subscription = useSubscription(token);
  const change = useSetSubscribed(token);
  if (subscription.isPending) {
    return (
      <div className="flex justify-center py-10" role="status" aria-label="Loading">
        <span className="size-8 animate-spin rounded-full border-4 border-indigo-200 border-t-indigo-600" />
      </div>
    );
  }
  if (subscription.isError) {
    return (
      <div className="text-center">
        <MailX className="mx-auto size-12 text-slate-400" aria-hidden="true" />
        <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">
          Product update e-mails
        </h1>
        <p role="alert" className="mt-2 text-slate-600">
          {subscription.error.message}
        </p>
      </div>
    );
  }
  const { email, productTitle, subscribed } = subscription.data;
  const Icon = subscribed ? MailCheck : MailX;
  return (
    <div className="text-center">
      <Icon className="mx-auto size-12 text-indigo-500" aria-hidden="true" />
      <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">
        Product update e-mails
      </h1>
      <div role="status" className="mt-3 text-slate-700">
        {subscribed ? (
          <p>
            Updates about products from the seller of “{productTitle}” go to{' '}
            <strong className="font-semibold text-slate-900">{email}</strong>.
          </p>
        ) : (
          <p>
            You are unsubscribed. You will not get update e-mails from this seller at{' '}
            <strong className="font-semibold text-slate-900">{email}</strong>.
          </p>
        )}
      </div>
      <Button
        className="mt-8"
        variant={subscribed ? 'primary' : 'secondary'}
        // Not `disabled`: that would drop keyboard focus while the change is being saved.
        aria-disabled={change.isPending}
        onClick={() => !change.isPending && change.mutate(!subscribed)}
      >
        {subscribed ? 'Unsubscribe' : 'Subscribe again'}
      </Button>
    </div>
  );
}
