import { EyeOff, KeyRound, RefreshCcw, ServerCog } from 'lucide-react';
import { policies } from '@/config/policies';
import type { Item } from '../content';

const safeguards: Item[] = [
  {
    icon: ServerCog,
    title: 'Unlocked by the provider, not the browser',
    description:
      'A file unlocks only when the payment provider’s signed webhook arrives and we have verified the amount, currency and reference with the provider.',
  },
  {
    icon: EyeOff,
    title: 'Previews rendered on our servers',
    description:
      'Blurred previews are generated server-side, so a visitor who has not paid never receives the original file.',
  },
  {
    icon: KeyRound,
    title: 'Short-lived download links',
    description: `Every download uses a signed link that expires after ${policies.downloadLinkValidityHours} hour, and access is re-checked each time a link is used.`,
  },
  {
    icon: RefreshCcw,
    title: 'Built for real-world connections',
    description:
      'Downloads resume after a dropped connection, and a buyer can get a fresh link at any time without paying again.',
  },
];

export function SecuritySection() {
  return (
    <section
      id="security"
      aria-labelledby="security-title"
      className="bg-slate-900 py-20 text-white sm:py-24"
    >
      <div className="mx-auto grid max-w-7xl gap-12 px-4 sm:px-6 lg:grid-cols-[2fr_3fr] lg:px-8">
        <div>
          <p className="text-sm font-semibold tracking-wide text-indigo-300 uppercase">Security</p>
          <h2
            id="security-title"
            className="mt-2 text-3xl font-bold tracking-tight text-balance sm:text-4xl"
          >
            Your file stays locked until the money is real
          </h2>
          <p className="mt-4 text-lg text-slate-300">
            Payment links are easy to share. Getting around them should not be. Every step between
            checkout and download is checked on our side.
          </p>
        </div>
        <ul className="grid gap-6 sm:grid-cols-2">
          {safeguards.map(({ icon: Icon, title, description }) => (
            <li key={title} className="rounded-2xl bg-white/5 p-6 ring-1 ring-white/10">
              <Icon className="size-6 text-indigo-300" aria-hidden="true" />
              <h3 className="mt-4 font-semibold">{title}</h3>
              <p className="mt-2 text-sm leading-6 text-slate-300">{description}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
