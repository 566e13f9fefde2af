import { Seo } from '@/components/seo/seo';
import { choosePlanFor } from '@/features/billing';
import { PageHeader } from '@/components/ui/section';
import { pageMeta } from '@/config/seo';
import { EarningsCalculator } from '@/features/pricing/components/earnings-calculator';
import { PlanGrid } from '@/features/pricing/components/plan-grid';
import { ProcessorFeeNote } from '@/features/pricing/components/processor-fee-note';

export default function BrandPricingRoute() {
  return (
    <>
      <Seo {...pageMeta.brandPricing} />
      <PageHeader
        eyebrow="Pricing"
        title="Know what you keep from every sale"
        description="Pick a plan and see your earnings after the platform fee and payment processing, in the currency you sell in."
      />
      <div className="bg-slate-50 py-16">
        <div className="mx-auto max-w-7xl space-y-16 px-4 sm:px-6 lg:px-8">
          <EarningsCalculator />
          <section aria-labelledby="plans-title">
            <h2
              id="plans-title"
              className="mb-10 text-center text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl"
            >
              Pick the plan that fits how you sell
            </h2>
            <PlanGrid billing="monthly" choosePlan={choosePlanFor} />
            <ProcessorFeeNote />
          </section>
        </div>
      </div>
    </>
  );
}
