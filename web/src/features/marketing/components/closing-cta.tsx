import { ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { GetStartedLink } from '@/features/auth';

export function ClosingCta() {
  return (
    <section aria-labelledby="cta-title" className="bg-white px-4 py-20 sm:px-6 sm:py-24 lg:px-8">
      <div className="relative isolate mx-auto max-w-5xl overflow-hidden rounded-3xl bg-indigo-600 px-6 py-16 text-center shadow-xl sm:px-16">
        <div
          aria-hidden="true"
          className="absolute -top-24 -right-24 -z-10 size-72 rounded-full bg-violet-500/60 blur-3xl"
        />
        <div
          aria-hidden="true"
          className="absolute -bottom-24 -left-24 -z-10 size-72 rounded-full bg-sky-400/40 blur-3xl"
        />
        <h2
          id="cta-title"
          className="text-3xl font-bold tracking-tight text-balance text-white sm:text-4xl"
        >
          Your next file could already be paid for
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-lg text-indigo-100">
          Create your first payment link in minutes. Free to start, no card required.
        </p>
        <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
          <GetStartedLink variant="inverse" size="lg">
            Get Started for Free
          </GetStartedLink>
          <ButtonLink
            to={paths.contact.getHref()}
            size="lg"
            className="bg-indigo-500 ring-1 ring-white/30 hover:bg-indigo-400"
          >
            Talk to us
          </ButtonLink>
        </div>
      </div>
    </section>
  );
}
