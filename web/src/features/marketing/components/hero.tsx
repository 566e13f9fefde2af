import { ArrowRight, Globe2 } from 'lucide-react';
import { ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { site } from '@/config/site';
import { GetStartedLink } from '@/features/auth';
import { HeroVisual } from './hero-visual';

export function Hero() {
  return (
    <section className="relative isolate overflow-hidden bg-gradient-to-b from-indigo-50/80 via-white to-white">
      <div className="mx-auto grid max-w-7xl items-center gap-16 px-4 pt-16 pb-20 sm:px-6 sm:pt-24 lg:grid-cols-2 lg:px-8 lg:pt-28">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full bg-white px-3 py-1 text-sm font-medium text-slate-700 shadow-sm ring-1 ring-slate-200">
            <Globe2 className="size-4 text-indigo-600" aria-hidden="true" />
            Creators selling in {site.countries} countries
          </p>
          <h1 className="mt-6 text-4xl font-bold tracking-tight text-balance text-slate-900 sm:text-6xl">
            Sell any file behind a <span className="text-indigo-600">secure payment link</span>
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-8 text-pretty text-slate-600">
            Upload a file, set your price and share one link. Buyers pay by card, bank transfer or
            mobile money — the file unlocks the moment the payment is confirmed, and your earnings
            are paid out automatically.
          </p>
          <div className="mt-10 flex flex-col gap-3 sm:flex-row">
            <GetStartedLink size="lg">
              Get Started for Free
              <ArrowRight className="size-4" aria-hidden="true" />
            </GetStartedLink>
            <ButtonLink to={paths.features.getHref()} variant="secondary" size="lg">
              See How It Works
            </ButtonLink>
          </div>
          <p className="mt-5 text-sm text-slate-500">
            No monthly fee on the Free plan. No card required.
          </p>
        </div>
        <HeroVisual />
      </div>
    </section>
  );
}
