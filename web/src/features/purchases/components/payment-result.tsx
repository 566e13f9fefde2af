import { Hourglass, XCircle } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { TryAgainLink } from '@/components/try-again-link';
import { buttonClass } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api';
import { usePageBrand } from '@/lib/page-brand';
import { notify } from '@/lib/toast';
import { usePayment } from '../api/get-payment';
import { PaymentNotFound } from './payment-not-found';
import { PaymentSuccess } from './payment-success';

/** /payment/success body: polls the checkout until the provider's webhook has settled it. */
export function PaymentResult({ txRef }: { txRef: string | null }) {
  const payment = usePayment(txRef);
  usePageBrand(payment.data?.brand);
  const notFound = payment.error instanceof ApiError && payment.error.status === 404;
  useEffect(() => {
    if (txRef === null) notify.error('Unable to find purchase details');
  }, [txRef]);
  useEffect(() => {
    if (!payment.error) return;
    notify.error(notFound ? payment.error : 'An error occurred while fetching purchase details');
  }, [payment.error, notFound]);

  if (txRef === null) return <PaymentNotFound />;
  if (payment.isPending) return <Waiting title="Checking your payment…" />;
  if (payment.isError) return <PaymentNotFound />;
  const { status, purchase } = payment.data;
  if (status === 'pending') {
    return (
      <Waiting
        title="Your payment is being confirmed"
        detail="We are waiting for the payment provider to confirm it. This page updates by itself; your receipt e-mail will also carry a download link."
      />
    );
  }
  if (status === 'paid' && purchase)
    return <PaymentSuccess purchase={purchase} txRef={payment.data.txRef} />;
  if (status === 'failed' || status === 'refunded') {
    return (
      <div className="text-center">
        <XCircle className="mx-auto size-14 text-rose-500" aria-hidden="true" />
        <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">
          {status === 'failed' ? 'Payment failed' : 'This purchase was refunded'}
        </h1>
        <p className="mt-2 text-slate-600">
          {status === 'failed'
            ? 'You were not charged. You can go back to the product and try again.'
            : 'Its file can no longer be downloaded.'}
        </p>
        <p className="mt-2 text-sm text-slate-500">Reference: {payment.data.txRef}</p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          {status === 'failed' && <TryAgainLink txRef={payment.data.txRef} />}
          <Link to={paths.home.getHref()} className={buttonClass('secondary')}>
            Home
          </Link>
        </div>
      </div>
    );
  }
  return <PaymentNotFound />;
}

function Waiting({ title, detail }: { title: string; detail?: string }) {
  return (
    <div className="text-center" role="status">
      <Hourglass className="mx-auto size-12 animate-pulse text-indigo-500" aria-hidden="true" />
      <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
      {detail && <p className="mt-2 text-slate-600">{detail}</p>}
    </div>
  );
}
