import { SectionHeading } from '@/components/ui/section';
import { steps } from '../content';

export function StepsSection() {
  return (
    <section aria-labelledby="how-it-works-title" className="bg-white py-20 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          id="how-it-works-title"
          eyebrow="How it works"
          title="From file to paid in three steps"
          description="No storefront to build and no payment code to write."
        />
        <ol className="mt-14 grid gap-8 md:grid-cols-3">
          {steps.map(({ icon: Icon, title, description }, index) => (
            <li key={title} className="relative rounded-2xl bg-slate-50 p-8 ring-1 ring-slate-200">
              <div className="flex items-center gap-4">
                <span className="flex size-10 items-center justify-center rounded-full bg-indigo-600 text-sm font-bold text-white">
                  {index + 1}
                </span>
                <Icon className="size-6 text-indigo-600" aria-hidden="true" />
              </div>
              <h3 className="mt-6 text-lg font-semibold text-slate-900">{title}</h3>
              <p className="mt-2 text-sm leading-6 text-slate-600">{description}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
