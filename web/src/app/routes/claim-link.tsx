import { MailCheck, XCircle } from 'lucide-react';
import { useSearchParams } from 'react-router-dom';
import { Seo } from '@/components/seo/seo';
import { ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';

const meta = {
  title: 'Confirm your e-mail — Lockdrop',
  description: 'The confirmation link of a free product.',
};

/**
 * Where a free claim's confirmation link lands when it cannot open the receipt (issue 30): the
 * claim was confirmed through another of its links, or the link is expired or not valid. A
 * working link goes straight to the receipt page instead.
 */
const OUTCOMES = {
  confirmed: {
    title: 'Your e-mail is confirmed',
    text: 'Your file is yours: the receipt e-mail we sent you has the download button.',
    ok: true,
  },
  claim_link_expired: {
    title: 'This link has expired',
    text: 'Claim the product again from its page to get a new confirmation e-mail.',
    ok: false,
  },
  claim_link_invalid: {
    title: 'This link is not valid',
    text: 'Open the link from the newest confirmation e-mail, or claim the product again from its page.',
    ok: false,
  },
} as const;

export default function ClaimLinkRoute() {
  const [search] = useSearchParams();
  const key = search.get('status') === 'confirmed' ? 'confirmed' : search.get('error');
  const outcome =
    key === 'confirmed' || key === 'claim_link_expired'
      ? OUTCOMES[key]
      : OUTCOMES.claim_link_invalid;
  const Icon = outcome.ok ? MailCheck : XCircle;
  return (
    <div className="bg-slate-50 px-4 py-14 sm:py-20">
      <Seo {...meta} />
      <div className="mx-auto max-w-lg rounded-3xl bg-white p-6 text-center shadow-sm ring-1 ring-slate-200 sm:p-10">
        <Icon
          className={`mx-auto size-14 ${outcome.ok ? 'text-emerald-600' : 'text-slate-400'}`}
          aria-hidden="true"
        />
        <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-900">{outcome.title}</h1>
        <p className="mt-2 text-slate-600">{outcome.text}</p>
        <div className="mt-8 flex justify-center">
          <ButtonLink to={paths.home.getHref()} variant="secondary">
            Back to Home
          </ButtonLink>
        </div>
      </div>
    </div>
  );
}
