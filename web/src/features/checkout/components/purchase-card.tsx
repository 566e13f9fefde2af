import type { PriceDisplay } from '@lockdrop/contracts';
import { formatMoney } from '@lockdrop/money';
import { formatFileSize } from '@lockdrop/plans';
import { FileDown, Lock, MailCheck, ShieldCheck } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { TestModeNotice } from '@/components/test-mode-notice';
import type { ApiError } from '@/lib/api';
import { notify } from '@/lib/toast';
import { useStartCheckout } from '../api/start-checkout';
import { buyLabel } from '../lib/amount';
import { useAmount } from '../lib/use-amount';
import { useDiscountCode } from '../lib/use-discount-code';
import { AmountField } from './amount-field';
import { DiscountCodeField } from './discount-code-field';

/** The element 'Purchase Now' scrolls to. */
export const PURCHASE_CARD_ID = 'purchase';

interface PurchaseCardProps {
  productId: string;
  /** The price in the currency on screen (for pay what you want, the suggested price). */
  price: PriceDisplay;
  /** "$19.99" → "$19.99 per month" for recurring pricing. */
  labelPrice: (formatted: string) => string;
  /** Pay what you want: the least the buyer may pay, in the price's currency. */
  minimum: PriceDisplay | null;
  /** A discount code to apply at once (the page's `?code=`). */
  initialCode?: string;
  /** What the buyer gets, shown before paying (a slow connection wants to know the size). */
  file: { name: string; sizeBytes: number };
  /** How many files the purchase unlocks (the heading says "file" or "N files"). */
  fileCount: number;
  /** Prefilled for a signed-in visitor. */
  defaultEmail?: string;
  /** A monthly or yearly price: paying subscribes. */
  recurring?: boolean;
}

const AMOUNT_REFUSALS = new Set(['amount_below_minimum', 'invalid_amount']);

const MISSING_EMAIL = 'Please enter your email';
const INVALID_EMAIL = 'This is not a valid e-mail address — check it reads like you@example.com';
/** One @, something before it, a dotted domain after it: catches typos like "bad@@email". */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Spec §5: an empty e-mail says 'Please enter your email'; a mistyped one says what is wrong. */
function emailProblem(email: string): string | null {
  if (!email) return MISSING_EMAIL;
  return EMAIL_SHAPE.test(email) ? null : INVALID_EMAIL;
}

/**
 * Spec §2 Product detail: buyer e-mail and 'Buy now for {price}' → the provider's page; with a
 * discount code, or the buyer's own amount for pay what you want.
 */
export function PurchaseCard({
  productId,
  price,
  labelPrice,
  minimum,
  initialCode,
  file,
  fileCount,
  defaultEmail = '',
  recurring = false,
}: PurchaseCardProps) {
  const id = useId();
  const [email, setEmail] = useState(defaultEmail);
  const [emailError, setEmailError] = useState<string | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  // Codes are for one-time, fixed-price purchases (payments refuses them elsewhere).
  const codesApply = minimum === null && !recurring;
  const code = useDiscountCode(productId, price.currency, initialCode, codesApply);
  const amount = useAmount(price, minimum);
  const checkout = useStartCheckout({
    showInline: (error: ApiError) => {
      if (error.code.startsWith('discount_')) code.refuse(error.message);
      else if (AMOUNT_REFUSALS.has(error.code)) amount.refuse(error.message);
      else return false;
      return true;
    },
  });
  const busy = checkout.isPending || checkout.isSuccess;
  // A free claim by an address that has not proven itself waits for its confirmation e-mail.
  const confirming = checkout.data?.confirmEmail ? checkout.variables?.buyerEmail : null;
  const typedMinor = amount.reading?.minor ?? null;
  // What the buy button names: the typed amount, the quoted total with a code, or the price.
  const total = amount.reading
    ? typedMinor === null
      ? null
      : { minor: typedMinor, label: formatMoney(typedMinor, price.currency) }
    : code.quote
      ? { minor: code.quote.total.amountMinor, label: labelPrice(code.quote.total.formatted) }
      : { minor: price.amountMinor, label: labelPrice(price.formatted) };

  function submit(event: FormEvent) {
    event.preventDefault();
    const buyerEmail = email.trim();
    const problem = emailProblem(buyerEmail);
    setEmailError(problem);
    if (problem) {
      emailRef.current?.focus();
      // The spec's toast is for an empty field; a typo is explained under the field only.
      if (problem === MISSING_EMAIL) notify.error(MISSING_EMAIL);
      return;
    }
    const reading = amount.reading;
    if (reading && reading.problem !== null) return amount.refuse(reading.problem);
    checkout.mutate({
      productId,
      buyerEmail,
      currency: price.currency,
      ...(reading ? { amount: reading.amount } : { discountCode: code.code }),
    });
  }

  return (
    <section
      id={PURCHASE_CARD_ID}
      tabIndex={-1}
      aria-labelledby={`${id}-title`}
      className="scroll-mt-24 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 focus:outline-none sm:p-8"
    >
      <h2
        id={`${id}-title`}
        className="flex items-center gap-2 text-lg font-semibold text-slate-900"
      >
        <Lock className="size-5 text-indigo-600" aria-hidden="true" />
        {fileCount > 1 ? `Unlock these ${fileCount} files` : 'Unlock this file'}
      </h2>
      <TestModeNotice className="mt-3 sm:mt-4" />
      {confirming ? (
        <div
          role="status"
          className="mt-5 rounded-xl bg-emerald-50 p-4 text-sm text-emerald-900 ring-1 ring-emerald-200"
        >
          <p className="flex items-center gap-2 font-semibold">
            <MailCheck className="size-5 flex-none text-emerald-600" aria-hidden="true" />
            Check your e-mail to confirm
          </p>
          <p className="mt-1">
            We sent a link to <span className="font-medium">{confirming}</span>. Open it to get your
            file: it is free, we only make sure this address is yours.
          </p>
        </div>
      ) : (
        <form noValidate onSubmit={submit} className="mt-3 sm:mt-5">
          <Field label="E-mail" error={emailError} hint="Your receipt and download link go here.">
            <Input
              ref={emailRef}
              type="email"
              autoComplete="email"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              placeholder="you@example.com"
            />
          </Field>
          {minimum ? (
            <AmountField
              value={amount.text}
              onChange={amount.change}
              currency={price.currency}
              minimum={minimum}
              problem={amount.problem}
            />
          ) : (
            codesApply && (
              <DiscountCodeField
                value={code.input}
                onChange={code.setInput}
                onApply={() => code.apply()}
                onRemove={code.remove}
                checking={code.checking}
                problem={code.problem}
                quote={code.quote}
                labelPrice={labelPrice}
              />
            )
          )}
          <Button type="submit" size="lg" className="mt-4 w-full" disabled={busy || code.checking}>
            {busy
              ? total?.minor === 0
                ? 'Getting your file…'
                : 'Redirecting to payment…'
              : buyLabel(total, recurring)}
          </Button>
        </form>
      )}
      {/* After Buy: on a phone Buy must stay within the first screen (issue 29). */}
      <p className="mt-4 flex items-center gap-2 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700 ring-1 ring-slate-200">
        <FileDown className="size-4 flex-none text-indigo-600" aria-hidden="true" />
        <span className="min-w-0 truncate">
          You get <span className="font-medium text-slate-900">{file.name}</span> (
          {formatFileSize(file.sizeBytes)})
        </span>
      </p>
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
