import { formatFileSize } from '@lockdrop/plans';
import { FileDown, Lock, ShieldCheck } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { notify } from '@/lib/toast';
import { useStartCheckout } from '../api/start-checkout';
import { TestModeNotice } from '@/components/test-mode-notice';

/** The element 'Purchase Now' scrolls to. */
export const PURCHASE_CARD_ID = 'purchase';

interface PurchaseCardProps {
  productId: string;
  /** 'Buy now for {price}' in the currency on screen. */
  priceLabel: string;
  currency: string;
  /** What the buyer gets, shown before paying (a slow connection wants to know the size). */
  file: { name: string; sizeBytes: number };
  /** Prefilled for a signed-in visitor. */
  defaultEmail?: string;
  /** A monthly or yearly price: paying subscribes. */
  recurring?: boolean;
}

/** Spec §2 Product detail: buyer e-mail and 'Buy now for {price}' → the provider's page. */
export function PurchaseCard({
  productId,
  priceLabel,
  currency,
  file,
  defaultEmail = '',
  recurring = false,
}: PurchaseCardProps) {
  const id = useId();
  const [email, setEmail] = useState(defaultEmail);
  const [missing, setMissing] = useState(false);
  const checkout = useStartCheckout();
  const busy = checkout.isPending || checkout.isSuccess;

  function submit(event: FormEvent) {
    event.preventDefault();
    const buyerEmail = email.trim();
    setMissing(!buyerEmail);
    if (!buyerEmail) return notify.error('Please enter your email');
    checkout.mutate({ productId, buyerEmail, currency });
  }

  return (
    <section
      id={PURCHASE_CARD_ID}
      tabIndex={-1}
      aria-labelledby={`${id}-title`}
      className="scroll-mt-24 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 focus:outline-none sm:p-8"
    >
      <h2
        id={`${id}-title`}
        className="flex items-center gap-2 text-lg font-semibold text-slate-900"
      >
        <Lock className="size-5 text-indigo-600" aria-hidden="true" /> Unlock this file
      </h2>
      <TestModeNotice className="mt-4" />
      <p className="mt-1 text-sm text-slate-600">
        We send your receipt and download link to this address.
      </p>
      <p className="mt-4 flex items-center gap-2 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700 ring-1 ring-slate-200">
        <FileDown className="size-4 flex-none text-indigo-600" aria-hidden="true" />
        <span className="min-w-0 truncate">
          You get <span className="font-medium text-slate-900">{file.name}</span> (
          {formatFileSize(file.sizeBytes)})
        </span>
      </p>
      <form noValidate onSubmit={submit} className="mt-5">
        <label htmlFor={`${id}-email`} className="block text-sm font-medium text-slate-900">
          E-mail
        </label>
        <input
          id={`${id}-email`}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={missing || undefined}
          aria-describedby={missing ? `${id}-email-error` : undefined}
          placeholder="you@example.com"
          className={`mt-2 block w-full rounded-lg border-0 px-3.5 py-2.5 text-slate-900 shadow-sm ring-1 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-indigo-600 focus:outline-none ${missing ? 'ring-rose-400' : 'ring-slate-300'}`}
        />
        {missing && (
          <p id={`${id}-email-error`} className="mt-2 text-sm text-rose-700">
            Please enter your email
          </p>
        )}
        <Button type="submit" size="lg" className="mt-4 w-full" disabled={busy}>
          {busy
            ? 'Redirecting to payment…'
            : recurring
              ? `Subscribe for ${priceLabel}`
              : `Buy now for ${priceLabel}`}
        </Button>
      </form>
      {recurring && (
        <p className="mt-3 text-sm text-slate-600">
          Renews automatically until you cancel. Cancel anytime from your purchases; you keep access
          until the end of the period you paid for.
        </p>
      )}
      <p className="mt-4 flex items-center justify-center gap-1.5 text-xs text-slate-500">
        <ShieldCheck className="size-4 text-emerald-600" aria-hidden="true" />
        Unlocks as soon as the payment provider confirms your payment.
      </p>
    </section>
  );
}
