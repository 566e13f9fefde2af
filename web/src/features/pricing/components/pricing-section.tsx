import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router-dom';
import { SectionHeading } from '@/components/ui/section';
import { paths } from '@/config/paths';
import type { ChoosePlan } from '../lib/plan-display';
import { PlanGrid } from './plan-grid';
import { ProcessorFeeNote } from './processor-fee-note';

export function PricingSection({ choosePlan }: { choosePlan: ChoosePlan }) {
  return (
    <section id="pricing" aria-labelledby="pricing-title" className="bg-slate-50 py-20 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          id="pricing-title"
          eyebrow="Pricing"
          title="Start free. Upgrade when you sell more."
          description="Lower fees and bigger files as you grow. No monthly fee on the Free plan."
        />
        <div className="mt-14">
          <PlanGrid billing="monthly" choosePlan={choosePlan} />
        </div>
        <ProcessorFeeNote />
        <p className="mt-4 flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm font-semibold">
          <Link
            to={paths.pricing.getHref()}
            className="inline-flex items-center gap-1 rounded text-indigo-700 hover:text-indigo-600"
          >
            Compare monthly and yearly plans <ArrowRight className="size-4" aria-hidden="true" />
          </Link>
          <Link
            to={paths.brandPricing.getHref()}
            className="inline-flex items-center gap-1 rounded text-indigo-700 hover:text-indigo-600"
          >
            Calculate your earnings <ArrowRight className="size-4" aria-hidden="true" />
          </Link>
        </p>
      </div>
    </section>
  );
}
